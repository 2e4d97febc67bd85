import { and, asc, eq, inArray, isNull, or, sql } from "drizzle-orm";
import { rawRows, type Db, type Executor as Queryable, type Tx } from "@/db/client";
import { jobEvents, jobRunOps, jobRuns, type ConcurrencySlot, type JobEvent, type MemoizedStep } from "@/db/schema";
import { holds, parseWaitIf, scalarTexts, valueAt } from "../expression";
import { ulid } from "../ids";
import type { FunctionDef, Registry } from "../registry";
import { ACTIVE, at, emptyResult, json, type IngestResult } from "./shared";

/** Events in: storing them (deduped by id), starting the runs they trigger and resolving the waits they satisfy. */

export class EventShapeError extends Error {
  override name = "EventShapeError";
}

/** An event as stored and handed to functions: id, name, data and ts always set. */
export function normalizeEvent(raw: unknown, now: number): JobEvent {
  const e = (raw ?? {}) as Partial<JobEvent> & Record<string, unknown>;
  if (typeof e.name !== "string" || !e.name) throw new EventShapeError("an event needs a non-empty `name`");
  if (e.data !== undefined && (e.data === null || typeof e.data !== "object" || Array.isArray(e.data))) {
    throw new EventShapeError(`event ${e.name}: \`data\` must be an object`);
  }
  const event: JobEvent = {
    id: typeof e.id === "string" && e.id ? e.id : ulid(now),
    name: e.name,
    data: (e.data as Record<string, unknown>) ?? {},
    ts: typeof e.ts === "number" && Number.isFinite(e.ts) ? e.ts : now,
  };
  if (e.user && typeof e.user === "object") event.user = e.user as Record<string, unknown>;
  if (typeof e.v === "string") event.v = e.v;
  return event;
}
/**
 * Stores events and acts on them in the caller's transaction, in Inngest's order: resolve the
 * waits they satisfy, then start the functions they trigger. An event id already stored does
 * nothing at all (dedupe).
 */
export async function ingestEvents(tx: Tx, registry: Registry, events: JobEvent[], now: number, out = emptyResult()) {
  if (!events.length) return out;
  const inserted = await tx
    .insert(jobEvents)
    .values(events.map((e) => ({ id: e.id, name: e.name, payload: e, receivedAt: at(now) })))
    .onConflictDoNothing()
    .returning({ id: jobEvents.id });
  const fresh = new Set(inserted.map((r) => r.id));
  for (const event of events) {
    if (!fresh.delete(event.id)) continue;
    await resolveMatchingWaits(tx, event, now, out);
    for (const { fn, trigger } of registry.triggeredBy(event.name)) {
      if (!holds(trigger.condition, { event })) continue;
      const id = await createRun(tx, fn, event, now);
      if (id) out.created.push(id);
    }
  }
  return out;
}

/**
 * The common send, in one statement and no explicit transaction: one event. Stores it, starts the
 * runs it triggers (both only if its id is new) and finds the waits it may resolve; each of those
 * is then settled in one more statement (resolveWait).
 */
export async function ingestOne(db: Db, registry: Registry, event: JobEvent, now: number): Promise<IngestResult> {
  const runs = registry
    .triggeredBy(event.name)
    .filter(({ trigger }) => holds(trigger.condition, { event }))
    .map(({ fn }) => newRun(fn, event, now));
  const values = scalarTexts(event);
  const ts = at(now).toISOString();
  const insertRuns = runs.length
    ? sql`, runs as (
        insert into ${jobRuns} (id, function_id, event_id, event, status, max_attempts, next_at, concurrency, created_at)
        select v.* from (values ${sql.join(
          runs.map(
            (r) =>
              sql`(${r.id}, ${r.functionId}, ${r.eventId}, ${json(r.event)}, 'queued', ${r.maxAttempts}::int, ${ts}::timestamptz, ${r.concurrency ? json(r.concurrency) : sql`null::jsonb`}, ${ts}::timestamptz)`,
          ),
          sql`, `,
        )}) v
        where exists (select 1 from ev)
        on conflict do nothing
        returning id)`
    : sql``;
  const rows = await rawRows<{
    kind: string;
    run_id: string;
    step_id: string | null;
    expression: string | null;
    run_event: JobEvent | null;
  }>(
    db,
    sql`
    with ev as (
      insert into ${jobEvents} (id, name, payload, received_at) values (${event.id}, ${event.name}, ${json(event)}, ${ts}::timestamptz)
      on conflict do nothing returning id
    )${insertRuns}
    ${runs.length ? sql`select 'run' as kind, id as run_id, null::text as step_id, null::text as expression, null::jsonb as run_event from runs union all` : sql``}
    select 'wait' as kind, o.run_id, o.step_id, o.expression, r.event as run_event
    from ${jobRunOps} o join ${jobRuns} r on r.id = o.run_id
    where exists (select 1 from ev) and o.kind = 'wait' and o.event_name = ${event.name}
      and ${
        values.length
          ? sql`(o.match_value is null or o.match_value in (${sql.join(
              values.map((v) => sql`${v}`),
              sql`, `,
            )}))`
          : sql`o.match_value is null`
      }
      and r.status in ('queued', 'running', 'sleeping', 'waiting', 'blocked')`,
  );
  const out = emptyResult();
  out.created.push(...rows.filter((r) => r.kind === "run").map((r) => r.run_id));
  // In run order, so two events waking the same runs lock them in the same order.
  const waits = rows
    .filter((r) => r.kind === "wait" && waitHolds(r.expression, r.run_event, event))
    .sort((a, b) => (a.run_id < b.run_id ? -1 : a.run_id > b.run_id ? 1 : 0));
  // Each settles in its own statement: a wait's settling touches no other wait's rows.
  for (const wait of waits) {
    if (await resolveWait(db, wait.run_id, wait.step_id!, { type: "data", data: event }, now)) out.woken.push(wait.run_id);
  }
  return out;
}

/** Whether an incoming event satisfies a wait's `if` (none: any event of its name). */
function waitHolds(expression: string | null, runEvent: unknown, event: JobEvent) {
  return !expression || holds(parseWaitIf(expression), { event: runEvent, async: event });
}

/** The concurrency slot of a run: `fn:<id>|<key>|<value>`; a missing value shares the slot "null". */
function slotKey(fn: FunctionDef, event: JobEvent): string {
  const { key, keyPath } = fn.concurrency!;
  const value = keyPath ? valueAt({ event }, keyPath) : "";
  const text = value === undefined || value === null ? "null" : typeof value === "string" ? value : JSON.stringify(value);
  return `fn:${fn.id}|${key ?? ""}|${text}`;
}

/** The row a new run of `fn` for `event` starts as. */
function newRun(fn: FunctionDef, event: JobEvent, now: number) {
  const concurrency: ConcurrencySlot[] | null = fn.concurrency ? [{ key: slotKey(fn, event), limit: fn.concurrency.limit }] : null;
  return {
    id: ulid(now),
    functionId: fn.id,
    eventId: event.id,
    event,
    status: "queued" as const,
    maxAttempts: fn.maxAttempts,
    nextAt: at(now),
    concurrency,
    createdAt: at(now),
  };
}

export async function createRun(tx: Queryable, fn: FunctionDef, event: JobEvent, now: number): Promise<string | undefined> {
  const rows = await tx
    .insert(jobRuns)
    .values(newRun(fn, event, now))
    // A run for this (function, event) exists already: nothing to do.
    .onConflictDoNothing()
    .returning({ id: jobRuns.id });
  return rows[0]?.id;
}

async function resolveMatchingWaits(tx: Tx, event: JobEvent, now: number, out: IngestResult) {
  const values = scalarTexts(event);
  const waits = await tx
    .select({ runId: jobRunOps.runId, stepId: jobRunOps.stepId, expression: jobRunOps.expression, runEvent: jobRuns.event })
    .from(jobRunOps)
    .innerJoin(jobRuns, eq(jobRuns.id, jobRunOps.runId))
    .where(
      and(
        eq(jobRunOps.kind, "wait"),
        eq(jobRunOps.eventName, event.name),
        values.length ? or(isNull(jobRunOps.matchValue), inArray(jobRunOps.matchValue, values)) : isNull(jobRunOps.matchValue),
        inArray(jobRuns.status, ACTIVE),
      ),
    )
    .orderBy(asc(jobRunOps.runId), asc(jobRunOps.createdAt));
  for (const wait of waits) {
    if (!waitHolds(wait.expression, wait.runEvent, event)) continue;
    if (await resolveWait(tx, wait.runId, wait.stepId, { type: "data", data: event }, now)) out.woken.push(wait.runId);
  }
}

/**
 * Settles a wait with an event, in one statement: deleting its row is the claim, so an event and
 * the timeout (or two events) can never both settle it. The result is merged into the run's steps,
 * and a parked run becomes due now; a running one is flagged to go round again instead of parking.
 *
 * Locks as the timeout does (run-driver's `resolveExpired`): the run's row first, then the wait's.
 * Deleting the wait first deadlocked against a timeout of the same wait under load (bench field).
 * A wait the timeout took meanwhile is gone when the lock is granted: nothing is written.
 */
export async function resolveWait(db: Queryable, runId: string, stepId: string, result: MemoizedStep, now: number) {
  const rows = await rawRows<{ id: string }>(
    db,
    sql`with held as (
          select id from ${jobRuns} where id = ${runId} for update
        ), gone as (
          delete from ${jobRunOps} o using held
          where o.run_id = held.id and o.step_id = ${stepId} and o.kind = 'wait'
          returning o.run_id
        )
        update ${jobRuns} r set
          steps = r.steps || ${json({ [stepId]: result })},
          stack = r.stack || ${json([stepId])},
          wake = true,
          status = case when r.status = 'waiting' then 'queued' else r.status end,
          next_at = case when r.status = 'waiting' then ${at(now).toISOString()}::timestamptz else r.next_at end
        from gone where r.id = gone.run_id
        returning r.id`,
  );
  return rows.length > 0;
}
