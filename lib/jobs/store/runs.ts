import { and, asc, eq, inArray, sql } from "drizzle-orm";
import { rawRows, type Executor as Queryable, type Tx } from "@/db/client";
import { jobCron, jobRunOps, jobRuns, type ConcurrencySlot, type JobRunStatus, type MemoizedStep } from "@/db/schema";
import type { Registry } from "../registry";
import { promoteBlocked } from "./claim";
import { ingestEvents, insertOpsOf } from "./job-events";
import { at, json, SYSTEM_EVENTS, type IngestResult, type OpRow, type RunRow } from "./shared";

/** A held run's writes (memoised steps, parking, its end) and the reads about runs. */

export type RunPatch = {
  memo?: Record<string, MemoizedStep>;
  attempt?: number;
};

/**
 * A holder's write: merges step results and extends the lease. Returns the run's current steps
 * (including any a concurrent event added), or undefined if the holder lost the run.
 */
export async function commitRun(db: Queryable, runId: string, lease: string, patch: RunPatch, now: number, leaseMs: number) {
  const memo = patch.memo ?? {};
  const ids = Object.keys(memo);
  const [row] = await db
    .update(jobRuns)
    .set({
      ...(ids.length ? { steps: sql`${jobRuns.steps} || ${json(memo)}`, stack: sql`${jobRuns.stack} || ${json(ids)}` } : {}),
      ...(patch.attempt !== undefined ? { attempt: patch.attempt } : {}),
      nextAt: at(now + leaseMs),
    })
    .where(and(eq(jobRuns.id, runId), eq(jobRuns.lease, lease), eq(jobRuns.status, "running")))
    .returning({ steps: jobRuns.steps, stack: jobRuns.stack });
  return row;
}

/**
 * A holder's write recording the wait the run now waits on, extending the lease, in one
 * statement; nothing is written if the holder lost the run. Returns the run's current steps, or
 * undefined if the run was lost.
 */
export async function commitRunWithOps(db: Queryable, runId: string, lease: string, ops: OpRow[], now: number, leaseMs: number) {
  const [row] = await rawRows<{ steps: unknown; stack: unknown }>(
    db,
    sql`with held as (
          update ${jobRuns} set next_at = ${at(now + leaseMs).toISOString()}::timestamptz
          where id = ${runId} and lease = ${lease} and status = 'running'
          returning steps, stack
        ), added as (${insertOps(ops)})
        select steps, stack from held`,
  );
  if (!row) return undefined;
  return { steps: parsed(row.steps) as Record<string, MemoizedStep>, stack: parsed(row.stack) as string[] };
}

/**
 * A holder's last write before a wait, in one statement: records the wait and hands the run back
 * until `nextAt` (the earliest of its waits), unless an event woke it during the call (then it is
 * due now, as parkRun does). For runs without concurrency slots (nothing else to touch). Returns
 * where the run now stands, or undefined if the holder lost it (then nothing was written).
 */
export async function parkRunOnWait(
  db: Queryable,
  runId: string,
  lease: string,
  ops: OpRow[],
  nextAt: number,
  now: number,
  memo: Record<string, MemoizedStep> | null = null,
) {
  const [row] = await rawRows<{ status: JobRunStatus; next_at: string | Date }>(
    db,
    sql`with held as (
          select id from ${jobRuns} where id = ${runId} and lease = ${lease} and status = 'running' for update
        ), added as (${insertOps(ops)})
        update ${jobRuns} r set ${memoAssignments(memo)}
          status = case when r.wake then 'queued' else 'waiting' end,
          next_at = case when r.wake then ${at(now).toISOString()}::timestamptz else ${at(nextAt).toISOString()}::timestamptz end,
          wake = false,
          lease = null
        from held where r.id = held.id
        returning r.status, r.next_at`,
  );
  if (!row) return undefined;
  return { status: row.status, nextAt: new Date(row.next_at).getTime() };
}

/**
 * A step result the holder stored with this write rather than on its own (run-driver's look-ahead),
 * as SQL assignments ending in a comma; none when there is nothing to store. A stored step resets
 * the attempt, as commitRun's memo does.
 */
const memoAssignments = (memo: Record<string, MemoizedStep> | null) =>
  memo && Object.keys(memo).length ? sql`steps = steps || ${json(memo)}, stack = stack || ${json(Object.keys(memo))}, attempt = 0,` : sql``;

/** The insert of a held run's new ops, as a CTE of a statement whose `held` names the run if still held. */
const insertOps = (ops: OpRow[]) => insertOpsOf(ops, sql`exists (select 1 from held)`);

const parsed = (v: unknown) => (typeof v === "string" ? JSON.parse(v) : v);

/**
 * A holder's write settling timed-out waits with null, in one statement: the ops
 * are deleted (unless an event resolved them first: then they are gone and stay unmemoised here)
 * and memoised, and the lease extended. Nothing is written if the holder lost the run. Returns the
 * run's current steps, or undefined if the run was lost.
 */
export async function resolveExpiredOps(db: Queryable, runId: string, lease: string, stepIds: string[], now: number, leaseMs: number) {
  const ids = sql`array[${sql.join(
    stepIds.map((id) => sql`${id}`),
    sql`, `,
  )}]::text[]`;
  const [row] = await rawRows<{ steps: unknown; stack: unknown }>(
    db,
    sql`with held as (
          select id from ${jobRuns} where id = ${runId} and lease = ${lease} and status = 'running' for update
        ), gone as (
          delete from ${jobRunOps} o using held where o.run_id = held.id and o.step_id = any(${ids})
          returning o.step_id
        )
        update ${jobRuns} r set
          steps = r.steps || coalesce((select jsonb_object_agg(step_id, '{"type":"data","data":null}'::jsonb) from gone), '{}'::jsonb),
          stack = r.stack || coalesce((select jsonb_agg(step_id) from gone), '[]'::jsonb),
          next_at = ${at(now + leaseMs).toISOString()}::timestamptz
        from held where r.id = held.id
        returning r.steps, r.stack`,
  );
  if (!row) return undefined;
  return { steps: parsed(row.steps) as Record<string, MemoizedStep>, stack: parsed(row.stack) as string[] };
}

/** Hands a run back until `nextAt`, unless an event woke it meanwhile (then it is due now). */
export async function parkRun(
  tx: Tx,
  run: { id: string; concurrency: ConcurrencySlot[] | null },
  lease: string,
  status: Extract<JobRunStatus, "queued" | "waiting">,
  nextAt: number,
  now: number,
) {
  const [row] = await tx
    .update(jobRuns)
    .set({
      status: sql`case when ${jobRuns.wake} then 'queued' else ${status} end`,
      nextAt: sql`case when ${jobRuns.wake} then ${at(now).toISOString()}::timestamptz else ${at(nextAt).toISOString()}::timestamptz end`,
      wake: false,
      lease: null,
    })
    .where(and(eq(jobRuns.id, run.id), eq(jobRuns.lease, lease), eq(jobRuns.status, "running")))
    .returning({ status: jobRuns.status, nextAt: jobRuns.nextAt });
  if (!row) return undefined;
  return { status: row.status, nextAt: row.nextAt!.getTime(), promoted: await promoteBlocked(tx, run.concurrency, now) };
}

/** Ends a run; returns false if the holder had lost it (then nothing was written). */
export async function finishRun(
  tx: Tx,
  registry: Registry,
  run: RunRow,
  lease: string,
  result: { status: "completed"; output: unknown } | { status: "failed"; error: unknown },
  now: number,
  out: IngestResult,
  hasOps = true,
  memo: Record<string, MemoizedStep> | null = null,
) {
  const jsonOrNull = (value: unknown) => (value === null || value === undefined ? sql`null::jsonb` : json(value));
  // The ops' delete rides the same statement: ending a run with waits or cancel ops is one statement too.
  const [row] = await rawRows<{ id: string }>(
    tx,
    sql`with done as (
          update ${jobRuns} set ${memoAssignments(memo)} status = ${result.status}, next_at = null, lease = null, wake = false,
            output = ${jsonOrNull(result.status === "completed" ? result.output : null)},
            error = ${jsonOrNull(result.status === "failed" ? result.error : null)},
            finished_at = ${at(now).toISOString()}::timestamptz
          where id = ${run.id} and lease = ${lease} and status = 'running'
          returning id
        )${hasOps ? sql`, gone as (delete from ${jobRunOps} o using done where o.run_id = done.id)` : sql``}
        select id from done`,
  );
  if (!row) return false;
  out.promoted += await promoteBlocked(tx, run.concurrency, now);
  out.finished.push(
    result.status === "completed"
      ? { runId: run.id, status: "completed", output: result.output ?? null }
      : { runId: run.id, status: "failed", error: result.error },
  );
  if (result.status === "failed" && registry.triggeredBy(SYSTEM_EVENTS.failed).length) {
    // What `onFailure` handlers are triggered by, as Inngest emits it.
    const data = { function_id: run.functionId, run_id: run.id, event: run.event, error: result.error };
    await ingestEvents(tx, registry, [{ id: `${run.id}:failed`, name: SYSTEM_EVENTS.failed, data, ts: now }], now, out);
  }
  return true;
}

export async function loadOps(db: Queryable, runId: string): Promise<OpRow[]> {
  return db.select().from(jobRunOps).where(eq(jobRunOps.runId, runId)).orderBy(asc(jobRunOps.createdAt));
}
/** The earliest due time among parked runs (and crons), or undefined. Running runs are left out. */
export async function nextDueAt(db: Queryable, { crons = true } = {}): Promise<number | undefined> {
  const [run] = await db
    .select({ nextAt: sql<string | Date | null>`min(${jobRuns.nextAt})` })
    .from(jobRuns)
    .where(inArray(jobRuns.status, ["queued", "waiting", "blocked"]));
  const [cron] = crons ? await db.select({ nextAt: sql<string | Date | null>`min(${jobCron.nextAt})` }).from(jobCron) : [];
  const times = [run?.nextAt, cron?.nextAt].filter((v): v is string | Date => !!v).map((v) => new Date(v).getTime());
  return times.length ? Math.min(...times) : undefined;
}

export type RunSummary = Pick<RunRow, "id" | "functionId" | "eventId" | "status" | "output" | "error" | "createdAt" | "finishedAt">;

const summary = {
  id: jobRuns.id,
  functionId: jobRuns.functionId,
  eventId: jobRuns.eventId,
  status: jobRuns.status,
  output: jobRuns.output,
  error: jobRuns.error,
  createdAt: jobRuns.createdAt,
  finishedAt: jobRuns.finishedAt,
};

export async function getRunSummary(db: Queryable, runId: string): Promise<RunSummary | undefined> {
  const [row] = await db.select(summary).from(jobRuns).where(eq(jobRuns.id, runId));
  return row;
}

export async function listRunsForEvent(db: Queryable, eventId: string): Promise<RunSummary[]> {
  return db.select(summary).from(jobRuns).where(eq(jobRuns.eventId, eventId)).orderBy(asc(jobRuns.createdAt));
}
