import { and, asc, eq, inArray, isNull, lte, notInArray, or, sql } from "drizzle-orm";
import { rawRows, type Executor as Queryable, type Tx } from "@/db/client";
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
  /** Runs that reached a final status (cancelled ones here), for waiters. */
  finished: string[];
};

export const emptyResult = (): IngestResult => ({ created: [], woken: [], finished: [] });

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

function slotKey(fn: FunctionDef, rule: ConcurrencyRule, event: JobEvent): string {
  // A key that cannot be evaluated shares one slot: erring towards less concurrency, not more.
  const value = rule.key ? (evaluateKey(rule.key, { event }) ?? "null") : "";
  const scope = rule.scope === "fn" ? `fn:${fn.id}` : "env";
  return `${scope}|${rule.key ?? ""}|${value}`;
}

export async function createRun(tx: Queryable, fn: FunctionDef, event: JobEvent, now: number): Promise<string | undefined> {
  let idempotencyKey: string | null = null;
  if (fn.idempotency) {
    idempotencyKey = evaluateKey(fn.idempotency, { event }) ?? null;
  }
  const concurrency: ConcurrencySlot[] | null = fn.concurrency.length
    ? fn.concurrency.map((rule) => ({ key: slotKey(fn, rule, event), limit: rule.limit }))
    : null;
  const rows = await tx
    .insert(jobRuns)
    .values({
      id: ulid(now),
      functionId: fn.id,
      eventId: event.id,
      event,
      status: "queued",
      maxAttempts: fn.maxAttempts,
      nextAt: at(now),
      concurrency,
      idempotencyKey,
      createdAt: at(now),
    })
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
      await promoteBlocked(tx, cancelled.concurrency, now);
      out.finished.push(run.id);
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

/** Emits a system event (function.failed/finished/cancelled) when something listens for it. */
export async function emitSystemEvent(tx: Tx, registry: Registry, event: JobEvent, now: number, out: IngestResult) {
  if (await someoneListens(tx, registry, event.name)) await ingestEvents(tx, registry, [event], now, out);
}

/**
 * Claims due runs for this executor. Runs with concurrency slots are checked under an advisory
 * lock per slot, so two executors (or two claims) can never both admit a run past its limit; a
 * run over its limit is parked as `blocked` until a slot frees (promoteBlocked) or its recheck.
 */
export async function claimRuns(
  tx: Tx,
  opts: { now: number; limit: number; leaseMs: number; lease: () => string; blockedRecheckMs: number },
): Promise<RunRow[]> {
  const { now } = opts;
  const candidates = await tx
    .select({ id: jobRuns.id, concurrency: jobRuns.concurrency })
    .from(jobRuns)
    .where(and(inArray(jobRuns.status, ACTIVE), lte(jobRuns.nextAt, at(now))))
    .orderBy(asc(jobRuns.nextAt))
    .limit(opts.limit)
    .for("update", { skipLocked: true });
  if (!candidates.length) return [];
  const keys = [...new Set(candidates.flatMap((c) => (c.concurrency ?? []).map((s) => s.key)))].sort();
  const running = new Map<string, number>();
  if (keys.length) {
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
  }
  const claimed: RunRow[] = [];
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
        lease: opts.lease(),
        nextAt: at(now + opts.leaseMs),
        startedAt: sql`coalesce(${jobRuns.startedAt}, ${at(now).toISOString()}::timestamptz)`,
        wake: false,
      })
      .where(eq(jobRuns.id, candidate.id))
      .returning();
    if (row) claimed.push(row);
  }
  return claimed;
}

/** Lets the oldest run blocked on each freed slot try again now. */
export async function promoteBlocked(tx: Queryable, slots: ConcurrencySlot[] | null, now: number) {
  for (const slot of slots ?? []) {
    await tx.execute(sql`
      update ${jobRuns} set status = 'queued', next_at = ${at(now).toISOString()}::timestamptz
      where id = (
        select id from ${jobRuns}
        where status = 'blocked' and concurrency @> ${json([{ key: slot.key }])}
        order by created_at limit 1 for update skip locked
      )`);
  }
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
    .returning({ status: jobRuns.status });
  if (row) await promoteBlocked(tx, run.concurrency, now);
  return row;
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
  await tx.delete(jobRunOps).where(eq(jobRunOps.runId, run.id));
  await promoteBlocked(tx, run.concurrency, now);
  out.finished.push(run.id);
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

/** The earliest due time among active runs and crons (to sleep until), or undefined. */
export async function nextDueAt(db: Queryable, { crons = true } = {}): Promise<number | undefined> {
  const [run] = await db
    .select({ nextAt: sql<string | Date | null>`min(${jobRuns.nextAt})` })
    .from(jobRuns)
    .where(inArray(jobRuns.status, ACTIVE));
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
