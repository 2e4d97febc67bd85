import { EventEmitter } from "node:events";
import { and, asc, desc, eq, gt, inArray, lte } from "drizzle-orm";
import type { Executor } from "@/db/client";
import { generationEvents } from "@/db/schema";

/**
 * generation_events is the source of every stream (SSE) about a job: status changes, provider
 * logs and gateway progress, in order. They are written by the generation store (store/events.ts
 * says how their order holds); a trigger then NOTIFYs every instance at commit (event-hub.ts), and
 * `notifyGeneration` wakes this process's other waiters at once.
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

const globalBus = globalThis as unknown as { __gwGenerationBus?: EventEmitter };
const bus = () => {
  if (!globalBus.__gwGenerationBus) {
    globalBus.__gwGenerationBus = new EventEmitter();
    globalBus.__gwGenerationBus.setMaxListeners(0);
  }
  return globalBus.__gwGenerationBus;
};

/** Wakes streams and sync waiters of this job in this process (call after the rows are committed). */
export function notifyGeneration(generationId: string): void {
  bus().emit(generationId);
}

/** Resolves at the next notification for the job, after `ms`, or when `signal` aborts. */
export function waitForGenerationNotice(generationId: string, ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      bus().off(generationId, done);
      signal?.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    bus().once(generationId, done);
    signal?.addEventListener("abort", done, { once: true });
  });
}
