import { EventEmitter } from "node:events";
import { and, asc, desc, eq, gt, inArray, lte, sql, type SQL } from "drizzle-orm";
import type { Executor } from "@/db/client";
import { generationEvents, generationRequests } from "@/db/schema";

/**
 * generation_events is the source of every stream (SSE) about a job: status changes, provider
 * logs and gateway progress, in order. Writers insert rows (inside the transaction that changes
 * the job, where there is one); a trigger then NOTIFYs every instance at commit (event-hub.ts),
 * and `notifyGeneration` wakes this process's other waiters at once.
 *
 * Order: a stream resumes after the `seq` of the last event it sent, so within one job rows must
 * become visible in `seq` order — a row committed late with a smaller `seq` than one already sent
 * would be skipped. Every insert therefore holds the job's row lock when it draws its `seq`: the
 * statements that change the job insert from the updated row (a CTE), and `appendEvents` locks the
 * row first (`for no key update`). Two writers of one job thus commit one after the other, in
 * `seq` order; writers of different jobs do not wait for each other.
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

/**
 * Appends events to one job, in order (inside the caller's transaction when given one), holding
 * the job's row lock (see the note on order above). A missing job gets none.
 */
export async function appendEvents(db: Executor, generationId: string, events: NewGenerationEvent[]): Promise<void> {
  if (events.length === 0) return;
  await db.execute(
    sql`with job as (select id from ${generationRequests} where id = ${generationId}::text for no key update) ${insertEventsFor("job", events)}`,
  );
}

/**
 * The insert of `events`, in order, for every row of the CTE named `jobs` (its `id` column), as
 * the body of a sibling CTE: the events commit in the very statement that changes the job.
 */
export function insertEventsFor(jobs: string, events: NewGenerationEvent[]): SQL {
  return insertEventListFor(jobs, JSON.stringify(events));
}

/**
 * `insertEventsFor` with the events as one JSON list (a value or a placeholder): the statement's
 * text does not depend on how many there are (one prepared statement; see `preparedStatement`).
 */
export function insertEventListFor(jobs: string, eventsJson: unknown): SQL {
  return sql`insert into ${generationEvents} (generation_id, kind, data)
    select j.id, e.value ->> 'kind', e.value -> 'data' from ${sql.identifier(jobs)} j, jsonb_array_elements(${eventsJson}::jsonb) with ordinality as e(value, ord) order by e.ord
    returning 1 as n`;
}

/**
 * The job's events after `afterSeq` (of `kinds` only, when given), oldest first, at most 500: a
 * stream reads from where its client left off, never the whole log again.
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
    .limit(500);
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
