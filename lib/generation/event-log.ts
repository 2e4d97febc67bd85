import { and, asc, desc, eq, gt, inArray, lte } from "drizzle-orm";
import type { Executor } from "@/db/client";
import { generationEvents } from "@/db/schema";

/**
 * generation_events is the source of every stream (SSE) about a job: status changes, provider
 * logs and gateway progress, in order. They are written by the generation store (store/job-events.ts
 * says how their order holds); a trigger then NOTIFYs every instance at commit (event-hub.ts).
 */
export type GenerationEventKind = "status" | "log" | "progress";
export type ProgressStage = "queued" | "submitted" | "running" | "storing" | "completed" | "failed" | "cancelled";
export type NewGenerationEvent = { kind: GenerationEventKind; data: Record<string, unknown> };
export type StoredGenerationEvent = typeof generationEvents.$inferSelect;

export const statusEvent = (status: string, extra: Record<string, unknown> = {}): NewGenerationEvent => ({
  kind: "status",
  data: { status, ...extra },
});
export const progressEvent = (stage: ProgressStage, extra: { percent?: number; message?: string } = {}): NewGenerationEvent => ({
  kind: "progress",
  data: { stage, ...extra },
});
export const logEvent = (message: string, timestamp: string): NewGenerationEvent => ({ kind: "log", data: { message, timestamp } });

/** The most events one read returns: a reader that got this many reads again at once. */
export const EVENTS_PAGE = 500;

/**
 * The job's events after `afterSeq` (of `kinds` only, when given), oldest first, at most
 * EVENTS_PAGE: a stream reads from where its client left off, never the whole log again.
 */
export async function eventsAfter(
  db: Executor,
  generationId: string,
  afterSeq: number,
  kinds?: readonly GenerationEventKind[],
): Promise<StoredGenerationEvent[]> {
  return db
    .select()
    .from(generationEvents)
    .where(
      and(
        eq(generationEvents.generationId, generationId),
        gt(generationEvents.seq, afterSeq),
        kinds ? inArray(generationEvents.kind, [...kinds]) : undefined,
      ),
    )
    .orderBy(asc(generationEvents.seq))
    .limit(EVENTS_PAGE);
}

/** The job's last event of `kind` at or before `seq` (the state a resumed stream starts from). */
export async function lastEventAt(
  db: Executor,
  generationId: string,
  kind: GenerationEventKind,
  seq: number,
): Promise<StoredGenerationEvent | null> {
  const [row] = await db
    .select()
    .from(generationEvents)
    .where(and(eq(generationEvents.generationId, generationId), eq(generationEvents.kind, kind), lte(generationEvents.seq, seq)))
    .orderBy(desc(generationEvents.seq))
    .limit(1);
  return row ?? null;
}

/** The job's provider logs at or before `seq`, oldest first (a resumed status stream with `logs`). */
export async function logsUpTo(db: Executor, generationId: string, seq: number): Promise<{ message: string; timestamp: string }[]> {
  const rows = await db
    .select({ data: generationEvents.data })
    .from(generationEvents)
    .where(and(eq(generationEvents.generationId, generationId), eq(generationEvents.kind, "log"), lte(generationEvents.seq, seq)))
    .orderBy(asc(generationEvents.seq));
  return rows.map((r) => ({ message: String(r.data.message), timestamp: String(r.data.timestamp) }));
}
