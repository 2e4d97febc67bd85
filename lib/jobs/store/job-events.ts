import { and, asc, eq, inArray, isNull, or, sql } from "drizzle-orm";
import { rawRows, type Db, type Executor as Queryable, type Tx } from "@/db/client";
import { jobEvents, jobRunOps, jobRuns, type ConcurrencySlot, type JobEvent, type MemoizedStep } from "@/db/schema";
import { evaluateKey, matches } from "../expressions";
import { ulid } from "../ids";
import { scalarTexts, simpleEquality, valueAt } from "../match";
import type { ConcurrencyRule, FunctionDef, Registry } from "../registry";
import { promoteBlocked } from "./claim";
import { ACTIVE, SYSTEM_EVENTS, at, emptyResult, json, type IngestResult } from "./shared";

/** Events in: storing them (deduped by id), starting the runs they trigger, cancelling and resolving waits. */

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
        {
          id: `${run.id}:cancelled`,
          name: SYSTEM_EVENTS.cancelled,
          data: { function_id: fn.id, run_id: run.id, event: run.event, error },
          ts: now,
        },
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
