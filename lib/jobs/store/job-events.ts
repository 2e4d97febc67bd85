import { and, asc, eq, inArray, isNull, notLike, or, sql, type SQL } from "drizzle-orm";
import { rawRows, type Db, type Executor as Queryable, type Tx } from "@/db/client";
import { jobEvents, jobRunOps, jobRuns, type ConcurrencySlot, type JobEvent, type MemoizedStep } from "@/db/schema";
import { holds, incomingSideText, parseWaitIf, runSideText, scalarTexts, valueAt } from "../expression";
import { ulid } from "../ids";
import type { FunctionDef, Registry } from "../registry";
import { ACTIVE, at, CANCEL_OP_PREFIX, emptyResult, json, NEVER, type IngestResult, type OpRow, type RunRow } from "./shared";

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
 * When the runs an event starts are due: now, or as far ahead as its `ts` is ahead of the wall
 * clock (Inngest's delayed functions), on the executor's clock (`now`: a test's ManualClock too).
 * The SDK stamps every event it sends with the sender's `Date.now()`, so only a `ts` set ahead
 * delays anything.
 */
export type StartOf = (event: JobEvent) => number;
export const startsNow =
  (now: number): StartOf =>
  () =>
    now;

/**
 * Stores events and acts on them in the caller's transaction, in Inngest's order: cancel the runs
 * they cancel (cancelOn), resolve the waits they satisfy, then start the functions they trigger.
 * An event id already stored does nothing at all (dedupe).
 */
export async function ingestEvents(
  tx: Tx,
  registry: Registry,
  events: JobEvent[],
  now: number,
  out = emptyResult(),
  startOf: StartOf = startsNow(now),
) {
  if (!events.length) return out;
  const inserted = await tx
    .insert(jobEvents)
    .values(events.map((e) => ({ id: e.id, name: e.name, payload: e, receivedAt: at(now) })))
    .onConflictDoNothing()
    .returning({ id: jobEvents.id });
  const fresh = new Set(inserted.map((r) => r.id));
  for (const event of events) {
    if (!fresh.delete(event.id)) continue;
    const targets = cancelTargets(registry, event);
    if (targets) {
      const cancelled = await rawRows<{ id: string }>(tx, sql`with ${cancelCtes(event, targets, now, sql`true`)} select id from cancelled`);
      out.finished.push(...cancelled.map(({ id }) => cancelledRun(id, event)));
    }
    await resolveMatchingWaits(tx, event, now, out);
    for (const { fn, trigger } of registry.triggeredBy(event.name)) {
      if (!holds(trigger.condition, { event })) continue;
      const startAt = Math.max(now, startOf(event));
      const id = await createRun(tx, fn, event, now, startAt);
      if (!id) continue;
      if (startAt > now) out.later = Math.min(out.later, startAt);
      else out.created.push(id);
    }
  }
  return out;
}

/** A cancel target: the runs whose op `stepId` (its function's rule) recorded `value` (null: the rule has no `if`). */
type CancelTarget = { stepId: string; value: string | null };

/** The runs an incoming event may cancel, by function, rule and the value its `if` needs; undefined if none. */
function cancelTargets(registry: Registry, event: JobEvent): CancelTarget[] | undefined {
  const targets: CancelTarget[] = [];
  for (const { rule } of registry.cancelledBy(event.name)) {
    const value = rule.condition ? incomingSideText(rule.condition, event) : null;
    if (value !== undefined) targets.push({ stepId: rule.stepId, value });
  }
  return targets.length ? targets : undefined;
}

/**
 * CTEs `cancelled` (the runs an event cancels: unfinished runs of the targets' functions whose
 * cancel op recorded the value the event offers; a run being executed is cancelled too, and its
 * holder's next write, conditional on `running`, finds it lost) and `dropped` (their ops).
 * `when`: the condition for acting at all (the event is new).
 */
function cancelCtes(event: JobEvent, targets: CancelTarget[], now: number, when: SQL) {
  // The runs are found from their ops (the waits' index on event name and match value; the op's
  // step id names the function and the rule), then by id: never by scanning the function's
  // unfinished runs. One branch per target, each its index's.
  const matched = sql.join(
    targets.map(
      (t) => sql`select o.run_id from ${jobRunOps} o
        where o.kind = 'wait' and o.event_name = ${event.name} and o.step_id = ${t.stepId}
          and ${t.value === null ? sql`o.match_value is null` : sql`o.match_value = ${t.value}`}`,
    ),
    sql` union all `,
  );
  const reason = { name: "Cancelled", message: `cancelled by the event ${event.name} (${event.id})` };
  return sql`matched as materialized (
      select * from (${matched}) m where ${when}
    ), cancelled as (
      update ${jobRuns} r set status = 'cancelled', next_at = null, lease = null, wake = false,
        finished_at = ${at(now).toISOString()}::timestamptz, error = ${json(reason)}
      from matched m
      where r.id = m.run_id and r.status in ('queued', 'running', 'sleeping', 'waiting', 'blocked')
      returning r.id
    ), dropped as (
      delete from ${jobRunOps} o using cancelled c where o.run_id = c.id
    )`;
}

const cancelledRun = (runId: string, event: JobEvent) =>
  ({ runId, status: "cancelled", error: { name: "Cancelled", message: `cancelled by the event ${event.name} (${event.id})` } }) as const;

/**
 * The sender's executor can drive new runs at once (it has free slots): up to `limit` runs due now
 * and outside concurrency limits are created already claimed by `owner`, as its claim would
 * (claims 1, leased for `leaseMs`), which spares each such run a claim statement.
 */
export type Hold = { owner: string; leaseMs: number; limit: number };

/**
 * The common send, in one statement and no explicit transaction: one event. Stores it, cancels the
 * runs it cancels (cancelOn), starts the runs it triggers with their cancel ops (all only if its id
 * is new; held by the sender when `hold` allows) and finds the waits it may resolve; each of those
 * is then settled in one more statement (resolveWait).
 */
export async function ingestOne(
  db: Db,
  registry: Registry,
  event: JobEvent,
  now: number,
  startAt = now,
  hold?: Hold,
): Promise<IngestResult> {
  const start = Math.max(now, startAt);
  let holdable = start > now ? 0 : (hold?.limit ?? 0);
  const runs = registry
    .triggeredBy(event.name)
    .filter(({ trigger }) => holds(trigger.condition, { event }))
    .map(({ fn }) => {
      const run = newRun(fn, event, now, start);
      const held = !run.concurrency && holdable-- > 0 ? heldRun(run, hold!, now) : null;
      return { run: held ?? run, held, ops: cancelOpsOf(fn, event, now) };
    });
  const values = scalarTexts(event);
  const ts = at(now).toISOString();
  const insertRuns = runs.length
    ? sql`, runs as (
        insert into ${jobRuns} (id, function_id, event_id, event, status, max_attempts, next_at, concurrency, created_at, lease, claims, started_at)
        select v.* from (values ${sql.join(
          runs.map(
            ({ run: r }) =>
              sql`(${r.id}, ${r.functionId}, ${r.eventId}, ${json(r.event)}, ${r.status}::text, ${r.maxAttempts}::int, ${r.nextAt!.toISOString()}::timestamptz, ${r.concurrency ? json(r.concurrency) : sql`null::jsonb`}, ${ts}::timestamptz, ${r.lease}::text, ${r.claims}::int, ${r.startedAt?.toISOString() ?? null}::timestamptz)`,
          ),
          sql`, `,
        )}) v
        where exists (select 1 from ev)
        on conflict do nothing
        returning id)`
    : sql``;
  const ops = runs.flatMap((r) => r.ops(r.run.id));
  const insertOps = ops.length ? sql`, run_ops as (${insertOpsOf(ops, sql`exists (select 1 from runs n where n.id = v.run_id)`)})` : sql``;
  const targets = cancelTargets(registry, event);
  const cancels = targets ? sql`, ${cancelCtes(event, targets, now, sql`exists (select 1 from ev)`)}` : sql``;
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
    )${insertRuns}${insertOps}${cancels}
    ${runs.length ? sql`select 'run' as kind, id as run_id, null::text as step_id, null::text as expression, null::jsonb as run_event from runs union all` : sql``}
    ${targets ? sql`select 'cancelled' as kind, id as run_id, null::text as step_id, null::text as expression, null::jsonb as run_event from cancelled union all` : sql``}
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
      and o.step_id not like ${`${CANCEL_OP_PREFIX}%`}
      and r.status in ('queued', 'running', 'sleeping', 'waiting', 'blocked')
      ${targets ? sql`and not exists (select 1 from cancelled c where c.id = o.run_id)` : sql``}`,
  );
  const out = emptyResult();
  const created = rows.filter((r) => r.kind === "run").map((r) => r.run_id);
  if (start > now) out.later = created.length ? start : Infinity;
  for (const { run, held, ops } of runs) {
    if (!created.includes(run.id)) continue;
    if (held) out.held.push({ ...held, fresh: true, ops: ops(run.id) });
    else if (start <= now) out.created.push(run.id);
  }
  out.finished.push(...rows.filter((r) => r.kind === "cancelled").map((r) => cancelledRun(r.run_id, event)));
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

/** The row a new run of `fn` for `event` starts as, due at `startAt`. */
function newRun(fn: FunctionDef, event: JobEvent, now: number, startAt = now): RunRow {
  const concurrency: ConcurrencySlot[] | null = fn.concurrency ? [{ key: slotKey(fn, event), limit: fn.concurrency.limit }] : null;
  return {
    id: ulid(now),
    functionId: fn.id,
    eventId: event.id,
    event,
    status: "queued",
    steps: {},
    stack: [],
    attempt: 0,
    maxAttempts: fn.maxAttempts,
    parallel: false,
    wake: false,
    nextAt: at(startAt),
    lease: null,
    claims: 0,
    concurrency,
    idempotencyKey: null,
    output: null,
    error: null,
    createdAt: at(now),
    startedAt: null,
    finishedAt: null,
  };
}

/** A new run as the first claim leaves it (claim.ts: status, lease, claims, start). */
const heldRun = (run: RunRow, hold: Hold, now: number): RunRow => ({
  ...run,
  status: "running",
  lease: `${hold.owner}:1`,
  claims: 1,
  nextAt: at(now + hold.leaseMs),
  startedAt: at(now),
});

/**
 * The cancel ops a new run of `fn` records, one per cancelOn rule its trigger can satisfy: a wait
 * for the rule's event (so an event finds it through the waits' index) that never times out, its
 * step id marking it as a cancel (CANCEL_OP_PREFIX), its match value the run's side of the `if` as
 * typed text (cancelCtes compares it with the incoming side in SQL alone).
 */
function cancelOpsOf(fn: FunctionDef, event: JobEvent, now: number): (runId: string) => OpRow[] {
  const rules = fn.cancelOn.flatMap((rule) => {
    const matchValue = rule.condition ? runSideText(rule.condition, event) : null;
    // The trigger lacks the value its `if` compares: no event can cancel this run.
    return matchValue === undefined ? [] : [{ rule, matchValue }];
  });
  return (runId) =>
    rules.map(({ rule, matchValue }) => ({
      runId,
      stepId: rule.stepId,
      kind: "wait" as const,
      displayName: "cancelOn",
      eventName: rule.event,
      expression: rule.expression,
      matchValue,
      dueAt: NEVER,
      attempt: 0,
      createdAt: at(now),
    }));
}

/** The insert of new ops, as a CTE body; `when` (over `v`, the values) decides each row. */
export function insertOpsOf(ops: OpRow[], when: SQL) {
  const values = sql.join(
    ops.map(
      (o) =>
        sql`(${o.runId}::text, ${o.stepId}::text, ${o.kind}::text, ${o.displayName}::text, ${o.eventName}::text, ${o.expression}::text, ${o.matchValue}::text, ${o.dueAt.toISOString()}::timestamptz, ${o.attempt}::integer, ${o.createdAt.toISOString()}::timestamptz)`,
    ),
    sql`, `,
  );
  return sql`insert into ${jobRunOps} (run_id, step_id, kind, display_name, event_name, expression, match_value, due_at, attempt, created_at)
          select v.* from (values ${values}) v(run_id, step_id, kind, display_name, event_name, expression, match_value, due_at, attempt, created_at)
          where ${when}
          on conflict do nothing`;
}

export async function createRun(tx: Queryable, fn: FunctionDef, event: JobEvent, now: number, startAt = now): Promise<string | undefined> {
  const run = newRun(fn, event, now, startAt);
  const rows = await tx
    .insert(jobRuns)
    .values(run)
    // A run for this (function, event) exists already: nothing to do.
    .onConflictDoNothing()
    .returning({ id: jobRuns.id });
  const id = rows[0]?.id;
  const ops = id ? cancelOpsOf(fn, event, now)(id) : [];
  if (ops.length) await tx.execute(insertOpsOf(ops, sql`true`));
  return id;
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
        notLike(jobRunOps.stepId, `${CANCEL_OP_PREFIX}%`),
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
