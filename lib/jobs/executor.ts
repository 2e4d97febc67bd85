import { randomUUID } from "node:crypto";
import { and, eq, inArray, sql } from "drizzle-orm";
import { getDb, type Db, type Tx } from "@/db/client";
import { jobRunOps, jobRuns, type JobEvent, type MemoizedStep } from "@/db/schema";
import { log } from "@/lib/logger";
import { ManualClock, systemClock, type Clock } from "./clock";
import { waitMatchValue } from "./match";
import { callFunction, syncFunctions, type CallOutcome, type Op, type Transport } from "./protocol";
import { buildRegistry, type Registry } from "./registry";
import {
  claimRuns,
  commitRun,
  emptyResult,
  finishRun,
  fireDueCrons,
  ingestEvents,
  ingestOne,
  loadOps,
  nextCronAt,
  nextDueAt,
  normalizeEvent,
  parkRun,
  syncCronSchedules,
  systemEventsListened,
  type ClaimedRun,
  type FinishedRun,
  type IngestResult,
  type OpRow,
  type RunRow,
} from "./store";
import { backoffMs, dueAt } from "./time";

/**
 * The embedded executor: a small Inngest server for one app, kept in the app's database. It learns
 * the functions through an in-band sync, stores events, and drives each run through the real
 * serve() handler with signed SDK-protocol calls, memoising every step before the next call. Runs
 * survive restarts: a run is held under a lease that expires, so a crashed instance's runs are
 * picked up by the next one, and every write by a holder is conditional on still holding it.
 */

export type ExecutorOptions = {
  transport: Transport;
  /** The database for the executor's own bookkeeping (default: the process database). */
  db?: () => Promise<Db>;
  /** The database sends are stored through (default: `db`); a send returns once its event is durable. */
  eventsDb?: () => Promise<Db>;
  clock?: Clock;
  /** Runs executed at once by this instance. */
  concurrency?: number;
  /** Longest pause between looks at the database for due work (auto mode). */
  pollIntervalMs?: number;
  /** How long a claim holds a run before another instance may take it over. */
  leaseMs?: number;
  /** When a run over a concurrency limit is looked at again if no slot frees first. */
  blockedRecheckMs?: number;
  /** Manual mode (tests): nothing runs until drain()/advance(); no timers. */
  manual?: boolean;
  /** Delay before retry after failed attempt n (0-based). */
  backoff?: (attempt: number) => number;
  /** Called after runs reach a final status (completed, failed, cancelled). */
  onFinished?: (runs: FinishedRun[]) => void;
};

const KNOWN_OPS = new Set(["StepRun", "StepError", "StepFailed", "StepPlanned", "Sleep", "WaitForEvent", "RunComplete"]);
const UNSUPPORTED_OPS: Record<string, string> = {
  InvokeFunction: "step.invoke",
  WaitForSignal: "step.waitForSignal",
  Gateway: "step.fetch",
  AIGateway: "step.ai.infer",
  DeferAdd: "defer",
  DeferAbort: "defer",
};
/** Calls one claim may make before the run is handed back (so one run cannot hog a slot). */
const MAX_CALLS_PER_CLAIM = 200;
/** Planned parallel steps executed at once within one run. */
const PARALLEL_STEPS = 8;

class LostRun extends Error {}

export class JobExecutor {
  readonly id = randomUUID().slice(0, 8);
  readonly clock: Clock;
  private readonly transport: Transport;
  private readonly getDb: () => Promise<Db>;
  private readonly getEventsDb: () => Promise<Db>;
  private readonly concurrency: number;
  private readonly pollIntervalMs: number;
  private readonly leaseMs: number;
  private readonly blockedRecheckMs: number;
  private readonly manual: boolean;
  private readonly backoff: (attempt: number) => number;
  private readonly onFinished?: (runs: FinishedRun[]) => void;
  private readonly inflight = new Map<string, Promise<void>>();
  private timer: NodeJS.Timeout | undefined;
  private immediate: NodeJS.Immediate | undefined;
  /** When the pending timer fires (Infinity: none pending). */
  private timerAt = Infinity;
  /** Earliest wake-up asked for while a tick ran. */
  private wakeLater = Infinity;
  /** The last claim filled every free slot: a finishing run should look for more. */
  private saturated = false;
  /** Earliest next cron fire time known (-Infinity: not looked yet). */
  private nextCronAt = -Infinity;
  private lastDueCheck = -Infinity;
  private started = false;
  private stopping = false;
  private dead = false;
  private ticking = false;
  private again = false;

  private constructor(
    readonly registry: Registry,
    opts: ExecutorOptions,
  ) {
    this.transport = opts.transport;
    this.getDb = opts.db ?? getDb;
    this.getEventsDb = opts.eventsDb ?? this.getDb;
    this.clock = opts.clock ?? systemClock;
    this.concurrency = opts.concurrency ?? 16;
    this.pollIntervalMs = opts.pollIntervalMs ?? 1000;
    this.leaseMs = opts.leaseMs ?? 30_000;
    this.blockedRecheckMs = opts.blockedRecheckMs ?? 5_000;
    this.manual = opts.manual ?? false;
    this.backoff = opts.backoff ?? ((attempt) => backoffMs(attempt));
    this.onFinished = opts.onFinished;
  }

  /** Syncs the app's functions (refusing what it cannot run) and records their cron schedules. */
  static async create(opts: ExecutorOptions): Promise<JobExecutor> {
    const registry = buildRegistry(await syncFunctions(opts.transport));
    const executor = new JobExecutor(registry, opts);
    const db = await executor.getDb();
    await syncCronSchedules(db, registry, executor.clock.now());
    return executor;
  }

  // ---------------------------------------------------------------- events

  /** Stores events (deduped by id) and acts on them; the embedded `inngest.send()` lands here. */
  async send(raw: unknown | unknown[]): Promise<{ ids: string[] }> {
    const now = this.clock.now();
    const events = (Array.isArray(raw) ? raw : [raw]).map((e) => normalizeEvent(e, now));
    if (!events.length) return { ids: [] };
    const db = await this.getEventsDb();
    const out =
      (events.length === 1 ? await ingestOne(db, this.registry, events[0]!, now) : undefined) ??
      (await this.transaction((tx) => ingestEvents(tx, this.registry, events, now, emptyResult()), db));
    this.afterWrite(out);
    return { ids: events.map((e) => e.id) };
  }

  private afterWrite(out: IngestResult) {
    if (out.finished.length) this.onFinished?.(out.finished);
    // New runs, woken runs, or runs promoted past a concurrency limit are due now.
    if (out.created.length || out.woken.length || out.promoted) this.kick();
  }

  /** Runs a transaction, retrying the rare deadlock/serialisation failure PostgreSQL reports. */
  private async transaction<T>(work: (tx: Tx) => Promise<T>, on?: Db): Promise<T> {
    const db = on ?? (await this.getDb());
    for (let attempt = 0; ; attempt++) {
      try {
        return await db.transaction(work);
      } catch (err) {
        const code = (err as { code?: string; cause?: { code?: string } }).code ?? (err as { cause?: { code?: string } }).cause?.code;
        if (attempt < 4 && (code === "40P01" || code === "40001")) continue;
        throw err;
      }
    }
  }

  // ---------------------------------------------------------------- loop
  //
  // Auto mode looks for work when something happens in this process (a send, a run parked until a
  // known time, a slot freed while saturated), and otherwise at the earliest due time it knows of,
  // at most pollIntervalMs apart (work from other instances, expired leases of crashed ones).

  /** Starts the loop (auto mode). */
  start(): void {
    if (this.started || this.manual) return;
    this.started = true;
    this.kick();
  }

  /** Looks for due work now (auto mode). */
  kick(): void {
    this.wakeAt(-Infinity);
  }

  /** Makes sure the loop looks again no later than `at` (executor clock). */
  private wakeAt(at: number) {
    if (!this.started || this.stopping || this.dead) return;
    if (this.ticking) {
      if (at <= this.clock.now()) this.again = true;
      else this.wakeLater = Math.min(this.wakeLater, at);
      return;
    }
    if (at >= this.timerAt) return;
    this.clearTimer();
    this.timerAt = at;
    const delay = at - this.clock.now();
    if (delay <= 0) {
      this.immediate = setImmediate(() => void this.tick());
    } else {
      this.timer = setTimeout(() => void this.tick(), delay);
      this.timer.unref?.();
    }
  }

  private clearTimer() {
    clearTimeout(this.timer);
    if (this.immediate) clearImmediate(this.immediate);
    this.timer = undefined;
    this.immediate = undefined;
    this.timerAt = Infinity;
  }

  private async tick() {
    this.timerAt = Infinity;
    if (this.ticking || this.stopping || this.dead) return;
    this.ticking = true;
    let next = this.clock.now() + this.pollIntervalMs;
    try {
      do {
        this.again = false;
        await this.fireCronsIfDue();
        const free = this.concurrency - this.inflight.size;
        this.saturated = free <= 0;
        if (this.saturated) break;
        const claimed = await this.claim(free);
        for (const run of claimed) this.track(run);
        // A full batch: there may be more due right now.
        this.saturated = claimed.length === free;
        if (this.saturated) this.again = true;
      } while (this.again && !this.stopping && !this.dead);
      // Runs parked by this process wake it themselves; the database is asked for the earliest due
      // time only every poll interval (work of other instances, leases of crashed ones).
      const now = this.clock.now();
      if (!this.saturated && now - this.lastDueCheck >= this.pollIntervalMs) {
        this.lastDueCheck = now;
        const due = await nextDueAt(await this.getDb(), { crons: false });
        if (due !== undefined) next = Math.min(next, due);
      }
      next = Math.min(next, this.nextCronAt, this.wakeLater);
      this.wakeLater = Infinity;
    } catch (err) {
      log.error("job executor tick failed", { error: err });
    } finally {
      this.ticking = false;
    }
    this.wakeAt(this.again ? -Infinity : next);
  }

  private track(run: ClaimedRun) {
    const done = this.processRun(run)
      .catch((err) => log.error("job run processing failed", { runId: run.id, functionId: run.functionId, error: err }))
      .finally(() => {
        this.inflight.delete(run.id);
        // A slot freed while work was waiting for one.
        if (this.saturated) this.kick();
      });
    this.inflight.set(run.id, done);
  }

  private async claim(limit: number): Promise<ClaimedRun[]> {
    if (limit <= 0) return [];
    return claimRuns(await this.getDb(), {
      now: this.clock.now(),
      limit,
      leaseMs: this.leaseMs,
      owner: this.id,
      blockedRecheckMs: this.blockedRecheckMs,
    });
  }

  /** Fires due cron triggers; the earliest next fire time is kept, so idle ticks cost no query. */
  private async fireCronsIfDue() {
    const now = this.clock.now();
    if (now < this.nextCronAt) return;
    const { out, nextAt } = await this.transaction(async (tx) => {
      const result = await fireDueCrons(tx, this.registry, now, emptyResult());
      return { out: result, nextAt: await nextCronAt(tx) };
    });
    // Another instance may fire first and move the rows on; looking again by the poll interval
    // keeps this copy from going stale for long.
    this.nextCronAt = Math.min(nextAt ?? Infinity, now + this.pollIntervalMs);
    this.afterWrite(out);
  }

  /** Stops claiming; runs in flight hand themselves back at their next step boundary. */
  async stop(timeoutMs = 10_000): Promise<void> {
    this.stopping = true;
    this.clearTimer();
    const all = Promise.allSettled([...this.inflight.values()]);
    await Promise.race([all, new Promise((resolve) => setTimeout(resolve, timeoutMs).unref?.())]);
  }

  /**
   * Tests: behaves as if the process died this instant. Nothing it holds is written again; its
   * leases expire and another executor takes the runs over.
   */
  kill(): void {
    this.dead = true;
    this.clearTimer();
  }

  // ---------------------------------------------------------------- test controls

  /** Runs everything due now (manual mode), until nothing is due and nothing is in flight. */
  async drain(): Promise<void> {
    for (let round = 0; round < 100_000; round++) {
      if (this.dead) return;
      await this.fireCronsIfDue();
      const claimed = await this.claim(this.concurrency - this.inflight.size);
      for (const run of claimed) this.track(run);
      if (!claimed.length) {
        if (!this.inflight.size) return;
        await Promise.race(this.inflight.values());
      } else {
        await Promise.allSettled([...this.inflight.values()]);
      }
    }
    throw new Error("drain() did not settle");
  }

  private manualClock(): ManualClock {
    if (!(this.clock instanceof ManualClock)) throw new Error("advance() needs a ManualClock");
    return this.clock;
  }

  /** Moves the clock forward, then drains. */
  async advance(by: number | string): Promise<void> {
    this.manualClock().advance(by);
    await this.drain();
  }

  /**
   * Jumps the clock from one due time to the next (sleeps, retries, timeouts), draining at each,
   * until no run has work due within `withinMs` of the start. Cron triggers are not followed.
   */
  async runUntilIdle({ withinMs = 30 * 86_400_000 }: { withinMs?: number } = {}): Promise<void> {
    const clock = this.manualClock();
    const limit = clock.now() + withinMs;
    for (;;) {
      await this.drain();
      const next = await nextDueAt(await this.getDb(), { crons: false });
      if (next === undefined || next > limit) return;
      if (next > clock.now()) clock.set(next);
    }
  }

  // ---------------------------------------------------------------- one run

  private async processRun(claimed: ClaimedRun): Promise<void> {
    const lease = claimed.lease!;
    const fn = this.registry.get(claimed.functionId);
    const state: RunState = {
      steps: claimed.steps,
      stack: claimed.stack,
      attempt: claimed.attempt,
      parallel: claimed.parallel,
      ops: claimed.fresh ? [] : await loadOps(await this.getDb(), claimed.id),
      dirty: true,
    };
    let renew: NodeJS.Timeout | undefined;
    if (!this.manual) {
      renew = setInterval(() => void this.renewLease(claimed.id, lease), Math.max(1000, Math.floor(this.leaseMs / 3)));
      renew.unref?.();
    }
    try {
      if (!fn) {
        await this.finish(claimed, lease, { status: "failed", error: { name: "FunctionNotFound", message: `function ${claimed.functionId} is not served by this app` } });
        return;
      }
      for (let calls = 0; ; ) {
        this.assertAlive();
        if (this.stopping || calls >= MAX_CALLS_PER_CLAIM) {
          await this.park(claimed, lease, "queued", this.clock.now());
          return;
        }
        const now = this.clock.now();
        // 1. Timers and wait timeouts that are due resolve to null.
        const expired = state.ops.filter((o) => (o.kind === "sleep" || o.kind === "wait") && o.dueAt.getTime() <= now);
        if (expired.length) {
          await this.resolveExpired(claimed, lease, state, expired, now);
          continue;
        }
        // 2. Planned parallel steps that are due run, each in its own call.
        const due = state.ops.filter((o) => o.kind === "step" && o.dueAt.getTime() <= now);
        if (due.length) {
          calls += due.length;
          const failed = await this.runPlannedSteps(claimed, lease, state, due.slice(0, PARALLEL_STEPS), claimed.maxAttempts);
          if (failed) {
            await this.finish(claimed, lease, { status: "failed", error: failed }, state.ops.length > 0);
            return;
          }
          continue;
        }
        // 3. Nothing new since the last call: wait for the earliest timer, event or retry.
        if (!state.dirty) {
          await this.parkUntilNext(claimed, lease, state.ops);
          return;
        }
        calls++;
        const outcome = await callFunction(
          this.transport,
          {
            functionId: claimed.functionId,
            stepId: "step",
            event: claimed.event,
            steps: state.steps,
            ctx: { runId: claimed.id, attempt: state.attempt, maxAttempts: claimed.maxAttempts, disableImmediateExecution: state.parallel, stack: state.stack },
          },
          this.clock.now(),
        );
        this.assertAlive();
        state.dirty = false;
        const done = await this.applyDiscovery(claimed, lease, state, outcome, claimed.maxAttempts);
        if (done) return;
      }
    } catch (err) {
      if (err instanceof LostRun) return;
      throw err;
    } finally {
      clearInterval(renew);
    }
  }

  private assertAlive() {
    if (this.dead) throw new LostRun();
  }

  private async renewLease(runId: string, lease: string) {
    if (this.dead) return;
    try {
      const db = await this.getDb();
      await db
        .update(jobRuns)
        .set({ nextAt: new Date(this.clock.now() + this.leaseMs) })
        .where(and(eq(jobRuns.id, runId), eq(jobRuns.lease, lease), eq(jobRuns.status, "running")));
    } catch (err) {
      log.warn("job lease renewal failed", { runId, error: String(err) });
    }
  }

  /** Applies the answer to a discovery call; returns true when the claim is over. */
  private async applyDiscovery(run: RunRow, lease: string, state: RunState, outcome: CallOutcome, maxAttempts: number): Promise<boolean> {
    const now = this.clock.now();
    if (outcome.kind === "complete") {
      await this.finish(run, lease, { status: "completed", output: outcome.output }, state.ops.length > 0);
      return true;
    }
    if (outcome.kind === "error") {
      if (outcome.retriable && state.attempt + 1 < maxAttempts) {
        await this.commit(run, lease, state, { attempt: state.attempt + 1 });
        await this.park(run, lease, "queued", now + (outcome.retryAfterMs ?? this.backoff(state.attempt)));
        return true;
      }
      await this.finish(run, lease, { status: "failed", error: outcome.error }, state.ops.length > 0);
      return true;
    }
    const ops = outcome.ops;
    const unsupported = ops.find((op) => !KNOWN_OPS.has(op.op));
    if (unsupported) {
      const what = UNSUPPORTED_OPS[unsupported.op] ?? `the ${unsupported.op} op`;
      await this.finish(run, lease, {
        status: "failed",
        error: { name: "UnsupportedByEmbeddedExecutor", message: `${what} needs an Inngest server; the embedded executor does not run it` },
      });
      return true;
    }
    const complete = ops.find((op) => op.op === "RunComplete");
    if (complete) {
      await this.finish(run, lease, { status: "completed", output: complete.data ?? null }, state.ops.length > 0);
      return true;
    }
    if (ops.length === 1 && ops[0]!.op === "StepRun") {
      await this.commit(run, lease, state, { memo: { [ops[0]!.id]: { type: "data", data: ops[0]!.data ?? null } }, attempt: 0 });
      return false;
    }
    if (ops.length === 1 && (ops[0]!.op === "StepFailed" || (ops[0]!.op === "StepError" && state.attempt + 1 >= maxAttempts))) {
      await this.commit(run, lease, state, { memo: { [ops[0]!.id]: { type: "error", error: ops[0]!.error ?? null } }, attempt: 0 });
      return false;
    }
    if (ops.length === 1 && ops[0]!.op === "StepError") {
      await this.commit(run, lease, state, { attempt: state.attempt + 1 });
      await this.park(run, lease, "queued", now + (outcome.retryAfterMs ?? this.backoff(state.attempt)));
      return true;
    }
    await this.addOps(run, lease, state, ops, now);
    return false;
  }

  /** Records newly reported steps, timers and waits (ignoring any already pending or memoised). */
  private async addOps(run: RunRow, lease: string, state: RunState, ops: Op[], now: number) {
    const pending = new Set(state.ops.map((o) => o.stepId));
    const rows: OpRow[] = [];
    for (const op of ops) {
      if (pending.has(op.id) || op.id in state.steps) continue;
      pending.add(op.id);
      const base = { runId: run.id, stepId: op.id, displayName: op.displayName ?? op.name ?? null, attempt: 0, createdAt: new Date(now), eventName: null, expression: null, matchValue: null };
      if (op.op === "StepPlanned" || op.op === "StepRun" || op.op === "StepError" || op.op === "StepFailed") {
        rows.push({ ...base, kind: "step", dueAt: new Date(now) });
      } else if (op.op === "Sleep") {
        rows.push({ ...base, kind: "sleep", dueAt: new Date(dueAt(String(op.name ?? op.opts?.["duration"] ?? "0s"), now)) });
      } else if (op.op === "WaitForEvent") {
        const expression = typeof op.opts?.["if"] === "string" ? (op.opts["if"] as string) : null;
        rows.push({
          ...base,
          kind: "wait",
          eventName: String(op.name ?? op.opts?.["event"]),
          expression,
          matchValue: waitMatchValue(expression, run.event) ?? null,
          dueAt: new Date(dueAt(String(op.opts?.["timeout"] ?? "365d"), now)),
        });
      }
    }
    const parallel = state.parallel || ops.length > 1;
    const db = await this.getDb();
    await db.transaction(async (tx) => {
      const current = await commitRun(tx, run.id, lease, { parallel }, now, this.leaseMs);
      if (!current) throw new LostRun();
      if (rows.length) await tx.insert(jobRunOps).values(rows).onConflictDoNothing();
      state.steps = current.steps;
      state.stack = current.stack;
    });
    state.parallel = parallel;
    state.ops.push(...rows);
  }

  /** Runs due planned steps, each in its own call; returns an error if one ended the run. */
  private async runPlannedSteps(run: RunRow, lease: string, state: RunState, due: OpRow[], maxAttempts: number): Promise<unknown> {
    const results = await Promise.all(
      due.map(async (op) => ({
        op,
        outcome: await callFunction(
          this.transport,
          {
            functionId: run.functionId,
            stepId: op.stepId,
            event: run.event,
            steps: state.steps,
            ctx: { runId: run.id, attempt: op.attempt, maxAttempts, disableImmediateExecution: true, stack: state.stack },
          },
          this.clock.now(),
        ),
      })),
    );
    this.assertAlive();
    const now = this.clock.now();
    const memo: Record<string, MemoizedStep> = {};
    const finished: string[] = [];
    const retries: { op: OpRow; dueAt: number }[] = [];
    for (const { op, outcome } of results) {
      const reported = outcome.kind === "ops" ? outcome.ops.find((o) => o.id === op.stepId) : undefined;
      if (reported?.op === "StepRun") {
        memo[op.stepId] = { type: "data", data: reported.data ?? null };
        finished.push(op.stepId);
      } else if (reported?.op === "StepFailed" || (reported?.op === "StepError" && op.attempt + 1 >= maxAttempts)) {
        memo[op.stepId] = { type: "error", error: reported.error ?? null };
        finished.push(op.stepId);
      } else if (reported?.op === "StepError" || (outcome.kind === "error" && outcome.retriable && op.attempt + 1 < maxAttempts)) {
        const retryAfter = outcome.kind === "complete" ? undefined : outcome.retryAfterMs;
        retries.push({ op, dueAt: now + (retryAfter ?? this.backoff(op.attempt)) });
      } else {
        return outcome.kind === "error"
          ? outcome.error
          : { name: "ProtocolError", message: `unexpected answer to planned step ${op.displayName ?? op.stepId}: ${JSON.stringify(outcome).slice(0, 300)}` };
      }
    }
    const db = await this.getDb();
    await db.transaction(async (tx) => {
      const current = await commitRun(tx, run.id, lease, { memo }, now, this.leaseMs);
      if (!current) throw new LostRun();
      if (finished.length) {
        await tx.delete(jobRunOps).where(and(eq(jobRunOps.runId, run.id), inArray(jobRunOps.stepId, finished)));
      }
      for (const { op, dueAt: at } of retries) {
        await tx
          .update(jobRunOps)
          .set({ attempt: op.attempt + 1, dueAt: new Date(at) })
          .where(and(eq(jobRunOps.runId, run.id), eq(jobRunOps.stepId, op.stepId)));
      }
      state.steps = current.steps;
      state.stack = current.stack;
    });
    state.ops = state.ops.filter((o) => !finished.includes(o.stepId));
    for (const { op, dueAt: at } of retries) {
      op.attempt += 1;
      op.dueAt = new Date(at);
    }
    if (finished.length) state.dirty = true;
    return undefined;
  }

  /** Settles due timers and timed-out waits with null (unless an event got to a wait first). */
  private async resolveExpired(run: RunRow, lease: string, state: RunState, expired: OpRow[], now: number) {
    const db = await this.getDb();
    await db.transaction(async (tx) => {
      const deleted = await tx
        .delete(jobRunOps)
        .where(and(eq(jobRunOps.runId, run.id), inArray(jobRunOps.stepId, expired.map((o) => o.stepId))))
        .returning({ stepId: jobRunOps.stepId });
      const memo = Object.fromEntries(deleted.map((d) => [d.stepId, { type: "data", data: null } as MemoizedStep]));
      const current = await commitRun(tx, run.id, lease, { memo }, now, this.leaseMs);
      if (!current) throw new LostRun();
      state.steps = current.steps;
      state.stack = current.stack;
    });
    const gone = new Set(expired.map((o) => o.stepId));
    state.ops = state.ops.filter((o) => !gone.has(o.stepId));
    state.dirty = true;
  }

  private async commit(run: RunRow, lease: string, state: RunState, patch: { memo?: Record<string, MemoizedStep>; attempt?: number }) {
    this.assertAlive();
    const current = await commitRun(await this.getDb(), run.id, lease, patch, this.clock.now(), this.leaseMs);
    if (!current) throw new LostRun();
    state.steps = current.steps;
    state.stack = current.stack;
    if (patch.attempt !== undefined) state.attempt = patch.attempt;
    if (patch.memo && Object.keys(patch.memo).length) state.dirty = true;
  }

  private async parkUntilNext(run: RunRow, lease: string, ops: OpRow[]) {
    const now = this.clock.now();
    if (!ops.length) {
      // The function reported nothing new and waits on nothing: a protocol surprise. Retry later
      // rather than spin.
      await this.park(run, lease, "queued", now + this.backoff(0));
      return;
    }
    const next = Math.min(...ops.map((o) => o.dueAt.getTime()));
    const status = ops.some((o) => o.kind === "wait") ? "waiting" : ops.some((o) => o.kind === "sleep") ? "sleeping" : "queued";
    await this.park(run, lease, status, next);
  }

  private async park(run: RunRow, lease: string, status: "queued" | "sleeping" | "waiting", nextAt: number) {
    this.assertAlive();
    const now = this.clock.now();
    const parked = await this.transaction((tx) => parkRun(tx, run, lease, status, nextAt, now));
    if (!parked) throw new LostRun();
    // Look again when it is next due (now, if an event woke it meanwhile).
    this.wakeAt(parked.nextAt);
    if (parked.promoted) this.kick();
  }

  private async finish(
    run: RunRow,
    lease: string,
    result: { status: "completed"; output: unknown } | { status: "failed"; error: unknown },
    hasOps = true,
  ) {
    this.assertAlive();
    const now = this.clock.now();
    const out = emptyResult();
    const db = await this.getDb();
    // Nothing else to touch (no ops, no concurrency slot, nobody listening for the system events):
    // one statement, no transaction.
    const simple = !hasOps && !run.concurrency && !(await systemEventsListened(db, this.registry, result.status));
    const done = simple
      ? await finishRun(db as unknown as Tx, this.registry, run, lease, result, now, out, false, false)
      : await this.transaction((tx) => finishRun(tx, this.registry, run, lease, result, now, out, hasOps));
    if (!done) throw new LostRun();
    if (result.status === "failed") log.warn("job run failed", { runId: run.id, functionId: run.functionId, error: result.error });
    this.afterWrite(out);
  }

  /** Events this executor can see the runs of (tests and the waiting helpers use it). */
  async runsForEvent(eventId: string) {
    const db = await this.getDb();
    return db.select().from(jobRuns).where(eq(jobRuns.eventId, eventId));
  }

  /** How many runs are active (for health and tests). */
  async activeRunCount(): Promise<number> {
    const db = await this.getDb();
    const [row] = await db
      .select({ n: sql<number>`count(*)::int` })
      .from(jobRuns)
      .where(inArray(jobRuns.status, ["queued", "running", "sleeping", "waiting", "blocked"]));
    return Number(row?.n ?? 0);
  }
}

type RunState = {
  steps: Record<string, MemoizedStep>;
  stack: string[];
  attempt: number;
  parallel: boolean;
  ops: OpRow[];
  dirty: boolean;
};

export type { JobEvent };
