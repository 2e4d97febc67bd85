import { and, eq, sql } from "drizzle-orm";
import { rawRows, relaxedOf, tableRow, type Db, type Executor } from "@/db/client";
import { generationRequests, type RouteAttempt } from "@/db/schema";
import type { WrittenAsset } from "@/lib/assets/rehost";
import type { NewGenerationEvent } from "../event-log";
import { FINAL_STATUSES, FINAL_STATUS_SQL_LIST, type GenerationRow } from "../types";
import { markWrittenStored } from "./asset-marks";
import { appendEvents, insertEventsFor } from "./job-events";

// A run's writes between its creation and its ending. The provider's id, progress events and
// stored marks commit asynchronously (relaxedOf: a PostgreSQL crash only makes the engine
// resubmit or copy again, never charge twice; docs/database.md).

/**
 * What the provider answered to a submit, and which route took it: recorded on the job
 * (`provider_request_id`, `submitted`; the provider, its model id, the attempts before it and its cost).
 */
export type Submission = {
  providerRequestId: string;
  queuePosition: number | null;
  at: Date;
  provider: string;
  endpointId: string;
  attempts: RouteAttempt[];
  costCredits: number | null;
};

/** The route columns a submission writes, as SQL assignments (one place for storeSubmission, a failover and the ending). */
export const submissionRouteValues = (s: Submission) =>
  sql`provider = ${s.provider}::text, provider_endpoint_id = ${s.endpointId}::text, attempts = ${JSON.stringify(s.attempts)}::jsonb,
      provider_cost_credits = ${s.costCredits}::bigint`;

export async function generationById(db: Executor, id: string): Promise<GenerationRow | null> {
  const [row] = await db.select().from(generationRequests).where(eq(generationRequests.id, id));
  return row ?? null;
}

/** Whether the job reached a final status (one indexed read of its status; a missing job counts as ended). */
export async function generationEnded(db: Executor, id: string): Promise<boolean> {
  const [current] = await db.select({ status: generationRequests.status }).from(generationRequests).where(eq(generationRequests.id, id));
  return !current || FINAL_STATUSES.includes(current.status);
}

/**
 * Stores the provider's id with `events` in one statement, unless the job ended (a cancel) or
 * another worker stored its own id first: then nothing is written and the answer is null.
 */
export function storeSubmission(db: Db, id: string, submission: Submission, events: NewGenerationEvent[]): Promise<GenerationRow | null> {
  return submitted(relaxedOf(db), id, submission, events, { from: null });
}

/**
 * The job moves to another provider before it started (lifecycle.ts failOver): the new provider's
 * id replaces the one it had (`from`), unless the job ended or another worker moved it first (null).
 */
export function storeFailover(
  db: Db,
  id: string,
  from: string,
  submission: Submission,
  events: NewGenerationEvent[],
): Promise<GenerationRow | null> {
  return submitted(db, id, submission, events, { from });
}

/** The one statement of both: the guard is the provider id the job holds now (none, or the one it leaves). */
async function submitted(
  db: Executor,
  id: string,
  submission: Submission,
  events: NewGenerationEvent[],
  { from }: { from: string | null },
): Promise<GenerationRow | null> {
  const at = submission.at.toISOString();
  const [raw] = await rawRows<Record<string, unknown>>(
    db,
    sql`with submitted_job as (
          update ${generationRequests}
             set provider_request_id = ${submission.providerRequestId}::text, submitted_at = ${at}::timestamptz, updated_at = ${at}::timestamptz,
                 queue_position = ${submission.queuePosition}::integer, ${submissionRouteValues(submission)}
                 ${from === null ? sql`` : sql`, status = 'queued', started_at = null`}
           where id = ${id} and ${from === null ? sql`provider_request_id is null` : sql`provider_request_id = ${from}`}
             and status not in (${FINAL_STATUS_SQL_LIST})
          returning *
        ), submitted_events as (${insertEventsFor("submitted_job", events)})
        select * from submitted_job`,
  );
  return raw ? tableRow(generationRequests, raw) : null;
}

/**
 * A job every route refused: the last provider asked is the one it ends on, the others its attempts
 * before it (as a job a provider took is recorded).
 */
export async function storeAttempts(db: Db, id: string, attempts: RouteAttempt[]): Promise<void> {
  const last = attempts.at(-1);
  if (!last) return;
  await db
    .update(generationRequests)
    .set({ provider: last.provider, attempts: attempts.slice(0, -1) })
    .where(and(eq(generationRequests.id, id), sql`provider_request_id is null`));
}

/** A run's progress events and the stored marks of its copied files, written now. */
export async function storeProgress(db: Db, id: string, events: NewGenerationEvent[], written: WrittenAsset[]): Promise<void> {
  if (events.length) await appendEvents(relaxedOf(db), id, events);
  await markWrittenStored(relaxedOf(db), written);
}

/**
 * The provider started the queued job: the move to `in_progress` and `events` (its status events,
 * then the check's new logs) in one statement, inserted from the updated row (see the note on order
 * in ./events). False, with nothing written, when the job is no longer queued (ended, or moved already).
 */
export async function markInProgress(db: Db, id: string, events: NewGenerationEvent[] = []): Promise<boolean> {
  const at = new Date().toISOString();
  const rows = await rawRows<{ id: string }>(
    db,
    sql`with started_job as (
          update ${generationRequests}
             set status = 'in_progress', started_at = ${at}::timestamptz, updated_at = ${at}::timestamptz, queue_position = null
           where id = ${id} and status = 'queued'
          returning id
        ), started_events as (${insertEventsFor("started_job", events)})
        select id from started_job`,
  );
  return rows.length > 0;
}

/** The job's place in the provider's queue, while it is queued. */
export async function setQueuePosition(db: Db, id: string, position: number | null): Promise<void> {
  await db
    .update(generationRequests)
    .set({ queuePosition: position })
    .where(and(eq(generationRequests.id, id), sql`${generationRequests.status} = 'queued'`));
}
