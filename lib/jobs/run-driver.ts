import { and, eq } from "drizzle-orm";
import type { Db, Tx } from "@/db/client";
import { jobRuns, type MemoizedStep } from "@/db/schema";
import { brand } from "@/lib/core/brand";
import { log } from "@/lib/core/logger";
import type { Clock } from "./clock";
import { decide, type WaitSpec } from "./outcome";
import { callFunction, type Transport } from "./protocol";
import type { Registry } from "./registry";
import {
  commitRun,
  commitRunWithOps,
  emptyResult,
  finishRun,
  isCancelOp,
  loadOps,
  parkRun,
  parkRunOnWait,
  resolveExpiredOps,
  SYSTEM_EVENTS,
  type ClaimedRun,
  type IngestResult,
  type OpRow,
} from "./store";

/**
 * One claimed run, driven to its next resting point: each call to the app's serve() handler runs
 * the function up to its next step, and the answer is memoised or recorded before the next step
 * runs. Every write is conditional on the lease; a lost lease ends the drive without writing.
 *
 * A step's result is not written on its own at once: the next call only looks at what comes next
 * (`planOnly`: the SDK reports a step without running it). A wait or the run's end is written with
 * the result in one statement; another step to run first has the result written, then runs. So no
 * step ever runs while an earlier one's result is unwritten, and a step followed by a wait (every
 * round of run-generation) costs one write, not two.
 */

/** What a run's driver needs from the executor that claimed it. */
export type DriverHost = {
  readonly transport: Transport;
  readonly clock: Clock;
  readonly registry: Registry;
  readonly leaseMs: number;
  readonly manual: boolean;
  getDb(): Promise<Db>;
  transaction<T>(work: (tx: Tx) => Promise<T>): Promise<T>;
  backoff(attempt: number): number;
  dead(): boolean;
  stopping(): boolean;
  wakeAt(at: number): void;
  kick(): void;
  afterWrite(out: IngestResult): void;
};

/** Calls one claim may make before the run is handed back (so one run cannot hog a slot). */
const MAX_CALLS_PER_CLAIM = 200;

/** The claim was lost (lease expired and taken over, or this process "died"). */
export class LostRun extends Error {}
const lostRuns = brand<LostRun>("lost-run");
lostRuns.mark(LostRun);
export const isLostRun = lostRuns.is;

export class RunDriver {
  private readonly lease: string;
  private steps: Record<string, MemoizedStep>;
  private stack: string[];
  private attempt: number;
  /** The waits pending; only this holder adds them, so this is a superset of the database's. */
  private waits: OpRow[] = [];
  /** The run has cancel ops (cancelOn): its end deletes them. They are not waits of the function's. */
  private readonly cancellable: boolean;
  /** Something was memoised since the last call. */
  private dirty = true;
  /** A step's result the run has not written yet: it rides the next write (see above). */
  private unwritten: Record<string, MemoizedStep> | null = null;

  constructor(
    private readonly host: DriverHost,
    private readonly run: ClaimedRun,
  ) {
    this.lease = run.lease!;
    this.steps = run.steps;
    this.stack = run.stack;
    this.attempt = run.attempt;
    this.cancellable = !!host.registry.get(run.functionId)?.cancelOn.length;
  }

  /** Drives the claimed run until it ends, parks (wait, retry) or the claim is lost. */
  async drive(): Promise<void> {
    const { run, host } = this;
    if (!run.fresh) this.waits = (run.ops ?? (await loadOps(await host.getDb(), run.id))).filter((o) => !isCancelOp(o));
    let renew: NodeJS.Timeout | undefined;
    if (!host.manual) {
      renew = setInterval(() => void this.renewLease(), Math.max(1000, Math.floor(host.leaseMs / 3)));
      renew.unref?.();
    }
    try {
      if (!host.registry.get(run.functionId)) {
        const message = `function ${run.functionId} is not served by this app`;
        return await this.finish({ status: "failed", error: { name: "FunctionNotFound", message } });
      }
      for (let calls = 0; ; calls++) {
        this.assertAlive();
        if (host.stopping() || calls >= MAX_CALLS_PER_CLAIM) return await this.park("queued", host.clock.now());
        // Waits whose timeout is due resolve to null.
        const expired = this.waits.filter((o) => o.dueAt.getTime() <= host.clock.now());
        if (expired.length) {
          await this.writeUnwritten();
          await this.resolveExpired(expired);
        }
        // Nothing new since the last call: wait for the earliest event or timeout.
        if (!this.dirty) return await this.parkUntilNext();
        if (await this.step()) return;
      }
    } catch (err) {
      if (isLostRun(err)) return;
      throw err;
    } finally {
      clearInterval(renew);
    }
  }

  /** Calls the function once and acts on its answer; returns true when the claim is over. */
  private async step(): Promise<boolean> {
    const { host, run } = this;
    const planOnly = this.unwritten !== null;
    const ctx = { runId: run.id, attempt: this.attempt, maxAttempts: run.maxAttempts, stack: this.stack, planOnly };
    const call = { functionId: run.functionId, stepId: "step", event: run.event, steps: this.steps, ctx };
    const outcome = await callFunction(host.transport, call, host.clock.now());
    this.assertAlive();
    this.dirty = false;
    const now = host.clock.now();
    const decision = decide(outcome, { attempt: this.attempt, maxAttempts: run.maxAttempts, event: run.event }, now, planOnly);
    switch (decision.kind) {
      case "finish":
        await this.finish(decision.result);
        return true;
      case "memo":
        // Kept for the next write; a second result (a look-ahead that ran a step after all) is
        // written now, with the kept one (commit carries it).
        if (this.unwritten) await this.commit({ memo: { [decision.stepId]: decision.step }, attempt: 0 });
        else this.keep(decision.stepId, decision.step);
        return false;
      case "planned":
        // A step runs next: the result before it is written first, then the call that runs it.
        await this.writeUnwritten();
        this.dirty = true;
        return false;
      case "retry":
        // Backoff by the new attempt's number: the n-th retry waits 2ⁿ s ±20 % (time.ts).
        await this.commit({ attempt: this.attempt + 1 });
        await this.park("queued", now + (decision.afterMs ?? host.backoff(this.attempt)));
        return true;
      case "wait":
        return this.addWait(decision.wait, now);
    }
  }

  /** A step's result, kept in memory until the run's next write (the class comment says why). */
  private keep(stepId: string, step: MemoizedStep) {
    this.unwritten = { [stepId]: step };
    this.steps = { ...this.steps, [stepId]: step };
    this.stack = [...this.stack, stepId];
    this.attempt = 0;
    this.dirty = true;
  }

  /** Writes the kept result on its own (before a step runs, or a write that cannot carry it). */
  private async writeUnwritten() {
    if (this.unwritten) await this.commit({ attempt: 0 });
  }

  private assertAlive() {
    if (this.host.dead()) throw new LostRun();
  }

  private async renewLease() {
    const { host, run, lease } = this;
    if (host.dead()) return;
    try {
      const db = await host.getDb();
      await db
        .update(jobRuns)
        .set({ nextAt: new Date(host.clock.now() + host.leaseMs) })
        .where(and(eq(jobRuns.id, run.id), eq(jobRuns.lease, lease), eq(jobRuns.status, "running")));
    } catch (err) {
      log.warn("job lease renewal failed", { runId: run.id, error: String(err) });
    }
  }

  /**
   * Records a new wait. When nothing else is due and no slot is held, that same statement parks the
   * run until its earliest wait (returns true: the claim is over); otherwise the loop goes on.
   */
  private async addWait(wait: WaitSpec, now: number): Promise<boolean> {
    const { host, run, lease } = this;
    if (this.waits.some((o) => o.stepId === wait.stepId) || wait.stepId in this.steps) return false;
    const row: OpRow = { ...wait, runId: run.id, kind: "wait", attempt: 0, dueAt: new Date(wait.dueAt), createdAt: new Date(now) };
    const waits = [...this.waits, row];
    const nextAt = Math.min(...waits.map((o) => o.dueAt.getTime()));
    const db = await host.getDb();
    if (!run.concurrency && !host.stopping() && nextAt > now) {
      this.assertAlive();
      const parked = await parkRunOnWait(db, run.id, lease, [row], nextAt, now, this.unwritten);
      if (!parked) throw new LostRun();
      this.unwritten = null;
      this.waits = waits;
      host.wakeAt(parked.nextAt);
      return true;
    }
    await this.writeUnwritten();
    const current = await commitRunWithOps(db, run.id, lease, [row], now, host.leaseMs);
    if (!current) throw new LostRun();
    this.steps = current.steps;
    this.stack = current.stack;
    this.waits = waits;
    return false;
  }

  /** Settles timed-out waits with null (unless an event got to one first), in one statement. */
  private async resolveExpired(expired: OpRow[]) {
    const { host, run, lease } = this;
    const ids = expired.map((o) => o.stepId);
    const current = await resolveExpiredOps(await host.getDb(), run.id, lease, ids, host.clock.now(), host.leaseMs);
    if (!current) throw new LostRun();
    this.steps = current.steps;
    this.stack = current.stack;
    this.waits = this.waits.filter((o) => !ids.includes(o.stepId));
    this.dirty = true;
  }

  /** Writes step results (the kept one too) and the attempt, extending the lease. */
  private async commit(patch: { memo?: Record<string, MemoizedStep>; attempt?: number }) {
    const { host, run, lease } = this;
    this.assertAlive();
    const memo = { ...this.unwritten, ...patch.memo };
    const current = await commitRun(await host.getDb(), run.id, lease, { ...patch, memo }, host.clock.now(), host.leaseMs);
    if (!current) throw new LostRun();
    this.unwritten = null;
    this.steps = current.steps;
    this.stack = current.stack;
    if (patch.attempt !== undefined) this.attempt = patch.attempt;
    if (patch.memo && Object.keys(patch.memo).length) this.dirty = true;
  }

  private async parkUntilNext() {
    const now = this.host.clock.now();
    // Waiting on nothing with nothing new reported is a protocol surprise: retry later rather than spin.
    if (!this.waits.length) return this.park("queued", now + this.host.backoff(0));
    await this.park("waiting", Math.min(...this.waits.map((o) => o.dueAt.getTime())));
  }

  private async park(status: "queued" | "waiting", nextAt: number) {
    const { host, run, lease } = this;
    await this.writeUnwritten();
    this.assertAlive();
    const now = host.clock.now();
    // Without concurrency slots nothing else is touched: one statement, no transaction.
    const parked = run.concurrency
      ? await host.transaction((tx) => parkRun(tx, run, lease, status, nextAt, now))
      : await parkRun((await host.getDb()) as unknown as Tx, run, lease, status, nextAt, now);
    if (!parked) throw new LostRun();
    // Look again when it is next due (now, if an event woke it meanwhile).
    host.wakeAt(parked.nextAt);
    if (parked.promoted) host.kick();
  }

  private async finish(result: { status: "completed"; output: unknown } | { status: "failed"; error: unknown }) {
    const { host, run, lease } = this;
    // Only this holder creates waits, so with none in memory there are none in the database.
    const hasOps = this.waits.length > 0 || this.cancellable;
    this.assertAlive();
    const now = host.clock.now();
    const out = emptyResult();
    // Nothing else to touch (no concurrency slot, no onFailure to trigger): one statement, the ops' delete included.
    const simple = !run.concurrency && (result.status === "completed" || !host.registry.triggeredBy(SYSTEM_EVENTS.failed).length);
    const memo = this.unwritten;
    const done = simple
      ? await finishRun((await host.getDb()) as unknown as Tx, host.registry, run, lease, result, now, out, hasOps, memo)
      : await host.transaction((tx) => finishRun(tx, host.registry, run, lease, result, now, out, hasOps, memo));
    if (!done) throw new LostRun();
    this.unwritten = null;
    if (result.status === "failed") log.warn("job run failed", { runId: run.id, functionId: run.functionId, error: result.error });
    host.afterWrite(out);
  }
}
