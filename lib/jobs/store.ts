import { and, asc, eq, inArray, isNull, lte, notInArray, or, sql } from "drizzle-orm";
import { rawRows, type Db, type Executor as Queryable, type Tx } from "@/db/client";
import {
  activeJobRunStatuses,
  jobCron,
  jobEvents,
  jobRunOps,
  jobRuns,
  type ConcurrencySlot,
  type JobEvent,
  type JobRunStatus,
  type MemoizedStep,
} from "@/db/schema";
import { evaluateKey, matches } from "./expressions";
import { ulid } from "./ids";
import { scalarTexts, simpleEquality, valueAt } from "./match";
import { nextCronTime, type ConcurrencyRule, type FunctionDef, type Registry } from "./registry";

/**
 * The executor's database operations. Every one is a single statement or runs inside the caller's
 * transaction; every time is the executor's clock (`now`, ms). Writes by a run's holder are
 * conditional on its lease, so a holder that lost the run (crash, expiry, cancellation) writes
 * nothing; step results are merged into `steps` (`||`), never overwritten, so a wait resolved by
 * an event and a step completed by the holder cannot lose each other's result.
 */

export type RunRow = typeof jobRuns.$inferSelect;
/** A claimed run; `fresh` when it never ran before (so it cannot have pending ops). */
export type ClaimedRun = RunRow & { fresh: boolean };
export type OpRow = typeof jobRunOps.$inferSelect;

const ACTIVE = [...activeJobRunStatuses];
const at = (ms: number) => new Date(ms);
const json = (value: unknown) => sql`${JSON.stringify(value)}::jsonb`;

/** Inngest's system events, emitted by the executor as the server would. */
export const SYSTEM_EVENTS = {
  failed: "inngest/function.failed",
  finished: "inngest/function.finished",
  cancelled: "inngest/function.cancelled",
  cron: "inngest/scheduled.timer",
} as const;

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

/** What an ingest changed, for the executor to act on after commit. */
export type IngestResult = {
  /** Runs created (to kick). */
  created: string[];
  /** Runs whose wait an event resolved (to kick). */
  woken: string[];
  /** Runs that reached a final status, for waiters in this process. */
  finished: FinishedRun[];
  /** Blocked runs let through because a concurrency slot freed (due now). */
  promoted: number;
};

/** A run's final outcome, as waiters receive it. */
export type FinishedRun = { runId: string; status: "completed" | "failed" | "cancelled"; output?: unknown; error?: unknown };

export const emptyResult = (): IngestResult => ({ created: [], woken: [], finished: [], promoted: 0 });

/**
 * Stores events and acts on them in the caller's transaction, in Inngest's order: cancel the
 * runs they cancel, resolve the waits they satisfy, then start the functions they trigger. An
 * event id already stored does nothing at all (dedupe).
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
    await cancelMatchingRuns(tx, registry, event, now, out);
    await resolveMatchingWaits(tx, event, now, out);
    for (const { fn, trigger } of registry.triggeredBy(event.name)) {
      if (!matches(trigger.expression, { event })) continue;
      const id = await createRun(tx, fn, event, now);
      if (id) out.created.push(id);
    }
  }
  return out;
}

/**
 * The common send, in one statement and no explicit transaction: one event that cancels nothing.
 * Stores it, starts the runs it triggers (both only if its id is new) and returns the waits it may
 * resolve; those (rare) are resolved in their own transaction. Returns undefined when the event
 * needs the general path (cancelOn listens for it).
 */
export async function ingestOne(db: Db, registry: Registry, event: JobEvent, now: number): Promise<IngestResult | undefined> {
  if (registry.cancelledBy(event.name).length) return undefined;
  const runs = registry
    .triggeredBy(event.name)
    .filter(({ trigger }) => matches(trigger.expression, { event }))
    .map(({ fn }) => newRun(fn, event, now));
  const values = scalarTexts(event);
  const ts = at(now).toISOString();
  const insertRuns = runs.length
    ? sql`, runs as (
        insert into ${jobRuns} (id, function_id, event_id, event, status, max_attempts, next_at, concurrency, idempotency_key, created_at)
        select v.* from (values ${sql.join(
          runs.map(
            (r) =>
              sql`(${r.id}, ${r.functionId}, ${r.eventId}, ${json(r.event)}, 'queued', ${r.maxAttempts}::int, ${ts}::timestamptz, ${r.concurrency ? json(r.concurrency) : sql`null::jsonb`}, ${r.idempotencyKey}::text, ${ts}::timestamptz)`,
          ),
          sql`, `,
        )}) v
        where exists (select 1 from ev)
        on conflict do nothing
        returning id)`
    : sql``;
  const rows = await rawRows<{ kind: string; run_id: string; step_id: string | null; expression: string | null; run_event: JobEvent | null }>(
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
      and ${values.length ? sql`(o.match_value is null or o.match_value in (${sql.join(values.map((v) => sql`${v}`), sql`, `)}))` : sql`o.match_value is null`}
      and r.status in ('queued', 'running', 'sleeping', 'waiting', 'blocked')`,
  );
  const out = emptyResult();
  out.created.push(...rows.filter((r) => r.kind === "run").map((r) => r.run_id));
  const waits = rows.filter((r) => r.kind === "wait" && matches(r.expression, { event: r.run_event, async: event }));
  if (waits.length) {
    await db.transaction(async (tx) => {
      for (const wait of waits) {
        if (await resolveOp(tx, wait.run_id, wait.step_id!, "wait", { type: "data", data: event }, now)) out.woken.push(wait.run_id);
      }
    });
  }
  return out;
}

function slotKey(fn: FunctionDef, rule: ConcurrencyRule, event: JobEvent): string {
  // A key that cannot be evaluated shares one slot: erring towards less concurrency, not more.
  const value = rule.key ? (evaluateKey(rule.key, { event }) ?? "null") : "";
  const scope = rule.scope === "fn" ? `fn:${fn.id}` : "env";
  return `${scope}|${rule.key ?? ""}|${value}`;
}

/** The row a new run of `fn` for `event` starts as. */
function newRun(fn: FunctionDef, event: JobEvent, now: number) {
  const concurrency: ConcurrencySlot[] | null = fn.concurrency.length
    ? fn.concurrency.map((rule) => ({ key: slotKey(fn, rule, event), limit: rule.limit }))
    : null;
  return {
    id: ulid(now),
    functionId: fn.id,
    eventId: event.id,
    event,
    status: "queued" as const,
    maxAttempts: fn.maxAttempts,
    nextAt: at(now),
    concurrency,
    idempotencyKey: fn.idempotency ? (evaluateKey(fn.idempotency, { event }) ?? null) : null,
    createdAt: at(now),
  };
}

export async function createRun(tx: Queryable, fn: FunctionDef, event: JobEvent, now: number): Promise<string | undefined> {
  const rows = await tx
    .insert(jobRuns)
    .values(newRun(fn, event, now))
    // A run for this (function, event) or this idempotency key exists already: nothing to do.
    .onConflictDoNothing()
    .returning({ id: jobRuns.id });
  return rows[0]?.id;
}

async function cancelMatchingRuns(tx: Tx, registry: Registry, event: JobEvent, now: number, out: IngestResult) {
  for (const { fn, cancel } of registry.cancelledBy(event.name)) {
    const equality = simpleEquality(cancel.expression);
    const expected = equality ? valueAt(event, equality.asyncPath) : undefined;
    if (equality && (expected === undefined || expected === null || typeof expected === "object")) continue;
    const candidates = await tx
      .select({ id: jobRuns.id, event: jobRuns.event, createdAt: jobRuns.createdAt })
      .from(jobRuns)
      .where(
        and(
          eq(jobRuns.functionId, fn.id),
          inArray(jobRuns.status, ACTIVE),
          equality ? sql`${jobRuns.event} #>> ${`{${equality.eventPath.join(",")}}`}::text[] = ${String(expected)}` : undefined,
        ),
      );
    for (const run of candidates) {
      if (cancel.timeoutMs !== undefined && run.createdAt.getTime() + cancel.timeoutMs < now) continue;
      if (!matches(cancel.expression, { event: run.event, async: event })) continue;
      const error = { name: "FunctionCancelled", message: `cancelled by ${event.name} (${event.id})` };
      const [cancelled] = await tx
        .update(jobRuns)
        .set({ status: "cancelled", error, finishedAt: at(now), nextAt: null, lease: null, wake: false })
        .where(and(eq(jobRuns.id, run.id), inArray(jobRuns.status, ACTIVE)))
        .returning({ id: jobRuns.id, concurrency: jobRuns.concurrency });
      if (!cancelled) continue;
      await tx.delete(jobRunOps).where(eq(jobRunOps.runId, run.id));
      out.promoted += await promoteBlocked(tx, cancelled.concurrency, now);
      out.finished.push({ runId: run.id, status: "cancelled", error });
      await emitSystemEvent(
        tx,
        registry,
        { id: `${run.id}:cancelled`, name: SYSTEM_EVENTS.cancelled, data: { function_id: fn.id, run_id: run.id, event: run.event, error }, ts: now },
        now,
        out,
      );
    }
  }
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
    .orderBy(asc(jobRunOps.createdAt));
  for (const wait of waits) {
    if (!matches(wait.expression, { event: wait.runEvent, async: event })) continue;
    if (await resolveOp(tx, wait.runId, wait.stepId, "wait", { type: "data", data: event }, now)) out.woken.push(wait.runId);
  }
}

/**
 * Settles a wait or a timer: deleting its row is the claim, so an event and a timeout (or two
 * events) can never both settle it. The result is merged into the run's steps, and a parked run
 * becomes due now; a running one is flagged to go round again instead of parking.
 */
export async function resolveOp(tx: Queryable, runId: string, stepId: string, kind: "wait" | "sleep", result: MemoizedStep, now: number) {
  const deleted = await tx
    .delete(jobRunOps)
    .where(and(eq(jobRunOps.runId, runId), eq(jobRunOps.stepId, stepId), eq(jobRunOps.kind, kind)))
    .returning({ stepId: jobRunOps.stepId });
  if (!deleted.length) return false;
  await tx
    .update(jobRuns)
    .set({
      steps: sql`${jobRuns.steps} || ${json({ [stepId]: result })}`,
      stack: sql`${jobRuns.stack} || ${json([stepId])}`,
      wake: true,
      status: sql`case when ${jobRuns.status} in ('sleeping', 'waiting') then 'queued' else ${jobRuns.status} end`,
      nextAt: sql`case when ${jobRuns.status} in ('sleeping', 'waiting') then ${at(now).toISOString()}::timestamptz else ${jobRuns.nextAt} end`,
    })
    .where(eq(jobRuns.id, runId));
  return true;
}

/** Whether anything would see an event of this name: a trigger, a cancelOn, or a pending wait. */
async function someoneListens(tx: Queryable, registry: Registry, name: string) {
  if (registry.listensTo(name)) return true;
  const [wait] = await tx
    .select({ runId: jobRunOps.runId })
    .from(jobRunOps)
    .where(and(eq(jobRunOps.kind, "wait"), eq(jobRunOps.eventName, name)))
    .limit(1);
  return !!wait;
}

/** Whether anything would see the system events a run ending this way emits. */
export async function systemEventsListened(db: Queryable, registry: Registry, status: "completed" | "failed") {
  const names: string[] = status === "failed" ? [SYSTEM_EVENTS.failed, SYSTEM_EVENTS.finished] : [SYSTEM_EVENTS.finished];
  if (names.some((name) => registry.listensTo(name))) return true;
  const [wait] = await db
    .select({ runId: jobRunOps.runId })
    .from(jobRunOps)
    .where(and(eq(jobRunOps.kind, "wait"), inArray(jobRunOps.eventName, names)))
    .limit(1);
  return !!wait;
}

/** Emits a system event (function.failed/finished/cancelled) when something listens for it. */
export async function emitSystemEvent(tx: Tx, registry: Registry, event: JobEvent, now: number, out: IngestResult) {
  if (await someoneListens(tx, registry, event.name)) await ingestEvents(tx, registry, [event], now, out);
}

export type ClaimOptions = { now: number; limit: number; leaseMs: number; owner: string; blockedRecheckMs: number };

/**
 * Claims due runs for this executor. One statement claims those without concurrency limits (the
 * common case) and reports the others, which go through claimLimited in a transaction.
 */
export async function claimRuns(db: Db, opts: ClaimOptions): Promise<ClaimedRun[]> {
  const now = at(opts.now).toISOString();
  const rows = await rawRows<{ row: Record<string, unknown> | null; limited_id: string | null }>(
    db,
    sql`
    with c as (
      select id, concurrency is not null as limited from ${jobRuns}
      where status in ('queued', 'running', 'sleeping', 'waiting', 'blocked') and next_at <= ${now}::timestamptz
      order by next_at limit ${opts.limit} for update skip locked
    ), u as (
      update ${jobRuns} r set
        status = 'running', claims = r.claims + 1, lease = ${opts.owner} || ':' || (r.claims + 1),
        next_at = ${at(opts.now + opts.leaseMs).toISOString()}::timestamptz,
        started_at = coalesce(r.started_at, ${now}::timestamptz), wake = false
      from c where r.id = c.id and not c.limited
      returning to_jsonb(r.*) as row
    )
    select row, null::text as limited_id from u
    union all
    select null::jsonb, id from c where limited`,
  );
  const claimed = rows.filter((r) => r.row).map((r) => claimedFromJson(r.row!));
  const limited = rows.map((r) => r.limited_id).filter((id): id is string => !!id);
  if (limited.length) claimed.push(...(await db.transaction((tx) => claimLimited(tx, limited, opts))));
  return claimed;
}

/**
 * Claims runs that have concurrency slots, under an advisory lock per slot, so two executors (or
 * two claims) can never both admit a run past its limit; a run over its limit is parked as
 * `blocked` until a slot frees (promoteBlocked) or its recheck.
 */
async function claimLimited(tx: Tx, ids: string[], opts: ClaimOptions): Promise<ClaimedRun[]> {
  const { now } = opts;
  const candidates = await tx
    .select({ id: jobRuns.id, concurrency: jobRuns.concurrency })
    .from(jobRuns)
    .where(and(inArray(jobRuns.id, ids), inArray(jobRuns.status, ACTIVE), lte(jobRuns.nextAt, at(now))))
    .orderBy(asc(jobRuns.nextAt))
    .for("update", { skipLocked: true });
  if (!candidates.length) return [];
  const keys = [...new Set(candidates.flatMap((c) => (c.concurrency ?? []).map((s) => s.key)))].sort();
  const running = new Map<string, number>();
  // Sorted, so two claimers always take the locks in the same order (no deadlock).
  for (const key of keys) await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`gw-jobs|${key}`}, 0))`);
  const counts = await rawRows<{ key: string; n: number }>(
    tx,
    sql`select s->>'key' as key, count(*)::int as n
        from ${jobRuns} r, jsonb_array_elements(r.concurrency) s
        where r.status = 'running' and r.next_at > ${at(now).toISOString()}::timestamptz
          and s->>'key' in (${sql.join(keys.map((k) => sql`${k}`), sql`, `)})
        group by 1`,
  );
  for (const { key, n } of counts) running.set(key, Number(n));
  const claimed: ClaimedRun[] = [];
  for (const candidate of candidates) {
    const slots = candidate.concurrency ?? [];
    if (slots.some((s) => (running.get(s.key) ?? 0) >= s.limit)) {
      await tx
        .update(jobRuns)
        .set({ status: "blocked", nextAt: at(now + opts.blockedRecheckMs), lease: null })
        .where(eq(jobRuns.id, candidate.id));
      continue;
    }
    for (const s of slots) running.set(s.key, (running.get(s.key) ?? 0) + 1);
    const [row] = await tx
      .update(jobRuns)
      .set({
        status: "running",
        claims: sql`${jobRuns.claims} + 1`,
        lease: sql`${opts.owner} || ':' || (${jobRuns.claims} + 1)`,
        nextAt: at(now + opts.leaseMs),
        startedAt: sql`coalesce(${jobRuns.startedAt}, ${at(now).toISOString()}::timestamptz)`,
        wake: false,
      })
      .where(eq(jobRuns.id, candidate.id))
      .returning();
    if (row) claimed.push({ ...row, fresh: row.claims === 1 });
  }
  return claimed;
}

const date = (v: unknown) => (v === null || v === undefined ? null : new Date(v as string));

/** A run row as `to_jsonb` renders it (snake_case, timestamps as text). */
function claimedFromJson(j: Record<string, unknown>): ClaimedRun {
  const row: RunRow = {
    id: j.id as string,
    functionId: j.function_id as string,
    eventId: j.event_id as string,
    event: j.event as JobEvent,
    status: j.status as JobRunStatus,
    steps: (j.steps ?? {}) as Record<string, MemoizedStep>,
    stack: (j.stack ?? []) as string[],
    attempt: j.attempt as number,
    maxAttempts: j.max_attempts as number,
    parallel: j.parallel as boolean,
    wake: j.wake as boolean,
    nextAt: date(j.next_at),
    lease: j.lease as string | null,
    claims: j.claims as number,
    concurrency: (j.concurrency ?? null) as ConcurrencySlot[] | null,
    idempotencyKey: (j.idempotency_key ?? null) as string | null,
    output: j.output ?? null,
    error: j.error ?? null,
    createdAt: date(j.created_at)!,
    startedAt: date(j.started_at),
    finishedAt: date(j.finished_at),
  };
  return { ...row, fresh: row.claims === 1 };
}

/** Lets the oldest run blocked on each freed slot try again now; returns how many. */
export async function promoteBlocked(tx: Queryable, slots: ConcurrencySlot[] | null, now: number): Promise<number> {
  let promoted = 0;
  for (const slot of slots ?? []) {
    const rows = await rawRows<{ id: string }>(
      tx,
      sql`
      update ${jobRuns} set status = 'queued', next_at = ${at(now).toISOString()}::timestamptz
      where id = (
        select id from ${jobRuns}
        where status = 'blocked' and concurrency @> ${json([{ key: slot.key }])}
        order by created_at limit 1 for update skip locked
      )
      returning id`,
    );
    promoted += rows.length;
  }
  return promoted;
}

export type RunPatch = {
  memo?: Record<string, MemoizedStep>;
  attempt?: number;
  parallel?: boolean;
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
      ...(ids.length
        ? { steps: sql`${jobRuns.steps} || ${json(memo)}`, stack: sql`${jobRuns.stack} || ${json(ids)}` }
        : {}),
      ...(patch.attempt !== undefined ? { attempt: patch.attempt } : {}),
      ...(patch.parallel !== undefined ? { parallel: patch.parallel } : {}),
      nextAt: at(now + leaseMs),
    })
    .where(and(eq(jobRuns.id, runId), eq(jobRuns.lease, lease), eq(jobRuns.status, "running")))
    .returning({ steps: jobRuns.steps, stack: jobRuns.stack });
  return row;
}

/** Hands a run back until `nextAt`, unless an event woke it meanwhile (then it is due now). */
export async function parkRun(
  tx: Tx,
  run: { id: string; concurrency: ConcurrencySlot[] | null },
  lease: string,
  status: Extract<JobRunStatus, "queued" | "sleeping" | "waiting">,
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
  emit = true,
) {
  const [row] = await tx
    .update(jobRuns)
    .set({
      status: result.status,
      output: result.status === "completed" ? (result.output ?? null) : null,
      error: result.status === "failed" ? result.error : null,
      finishedAt: at(now),
      nextAt: null,
      lease: null,
      wake: false,
    })
    .where(and(eq(jobRuns.id, run.id), eq(jobRuns.lease, lease), eq(jobRuns.status, "running")))
    .returning({ id: jobRuns.id });
  if (!row) return false;
  if (hasOps) await tx.delete(jobRunOps).where(eq(jobRunOps.runId, run.id));
  out.promoted += await promoteBlocked(tx, run.concurrency, now);
  out.finished.push(
    result.status === "completed"
      ? { runId: run.id, status: "completed", output: result.output ?? null }
      : { runId: run.id, status: "failed", error: result.error },
  );
  if (!emit) return true;
  const base = { function_id: run.functionId, run_id: run.id, event: run.event };
  if (result.status === "failed") {
    await emitSystemEvent(tx, registry, { id: `${run.id}:failed`, name: SYSTEM_EVENTS.failed, data: { ...base, error: result.error }, ts: now }, now, out);
  }
  await emitSystemEvent(
    tx,
    registry,
    {
      id: `${run.id}:finished`,
      name: SYSTEM_EVENTS.finished,
      data: { ...base, ...(result.status === "completed" ? { result: result.output ?? null } : { error: result.error }) },
      ts: now,
    },
    now,
    out,
  );
  return true;
}

export async function loadOps(db: Queryable, runId: string): Promise<OpRow[]> {
  return db.select().from(jobRunOps).where(eq(jobRunOps.runId, runId)).orderBy(asc(jobRunOps.createdAt));
}

/** Writes the upkeep cron triggers need: one row per (function, schedule), next fire time. */
export async function syncCronSchedules(db: Queryable, registry: Registry, now: number) {
  const wanted = registry.crons();
  if (wanted.length) {
    await db
      .insert(jobCron)
      .values(wanted.map((c) => ({ ...c, nextAt: at(nextCronTime(c.schedule, now)) })))
      .onConflictDoNothing();
  }
  const keep = wanted.map((c) => `${c.functionId}\n${c.schedule}`);
  await db
    .delete(jobCron)
    .where(keep.length ? notInArray(sql`${jobCron.functionId} || E'\\n' || ${jobCron.schedule}`, keep) : undefined);
}

/** Fires every cron trigger that is due: one run per scheduled time, whichever instance gets there. */
export async function fireDueCrons(tx: Tx, registry: Registry, now: number, out: IngestResult) {
  const due = await tx
    .select()
    .from(jobCron)
    .where(lte(jobCron.nextAt, at(now)))
    .for("update", { skipLocked: true });
  for (const row of due) {
    const fn = registry.get(row.functionId);
    if (!fn || !fn.crons.includes(row.schedule)) {
      await tx.delete(jobCron).where(and(eq(jobCron.functionId, row.functionId), eq(jobCron.schedule, row.schedule)));
      continue;
    }
    // After downtime the missed ticks fire once, as the latest of them.
    let scheduled = row.nextAt.getTime();
    for (let i = 0; i < 100_000; i++) {
      const following = nextCronTime(row.schedule, scheduled);
      if (following > now) break;
      scheduled = following;
    }
    const event: JobEvent = {
      id: `cron:${row.functionId}:${row.schedule}:${new Date(scheduled).toISOString()}`,
      name: SYSTEM_EVENTS.cron,
      data: { cron: row.schedule },
      ts: scheduled,
    };
    const inserted = await tx
      .insert(jobEvents)
      .values({ id: event.id, name: event.name, payload: event, receivedAt: at(now) })
      .onConflictDoNothing()
      .returning({ id: jobEvents.id });
    if (inserted.length) {
      const id = await createRun(tx, fn, event, now);
      if (id) out.created.push(id);
    }
    await tx
      .update(jobCron)
      .set({ nextAt: at(nextCronTime(row.schedule, Math.max(now, scheduled))) })
      .where(and(eq(jobCron.functionId, row.functionId), eq(jobCron.schedule, row.schedule)));
  }
  return out;
}

export async function nextCronAt(db: Queryable): Promise<number | undefined> {
  const [cron] = await db.select({ nextAt: sql<string | Date | null>`min(${jobCron.nextAt})` }).from(jobCron);
  return cron?.nextAt ? new Date(cron.nextAt).getTime() : undefined;
}

/** The earliest due time among parked runs (and crons), or undefined. Running runs are left out. */
export async function nextDueAt(db: Queryable, { crons = true } = {}): Promise<number | undefined> {
  const [run] = await db
    .select({ nextAt: sql<string | Date | null>`min(${jobRuns.nextAt})` })
    .from(jobRuns)
    .where(inArray(jobRuns.status, ["queued", "sleeping", "waiting", "blocked"]));
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
