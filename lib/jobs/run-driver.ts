import { brand } from "@/lib/brand";
import { and, eq, inArray } from "drizzle-orm";
import type { Db, Tx } from "@/db/client";
import { jobRunOps, jobRuns, type MemoizedStep } from "@/db/schema";
import { log } from "@/lib/logger";
import type { Clock } from "./clock";
import { waitMatchValue } from "./match";
import { callFunction, type CallOutcome, type Op, type Transport } from "./protocol";
import type { Registry } from "./registry";
import {
  commitRun,
  commitRunWithOps,
  emptyResult,
  finishRun,
  loadOps,
  parkRun,
  resolveExpiredOps,
  systemEventsListened,
  type ClaimedRun,
  type IngestResult,
  type OpRow,
} from "./store";
import { dueAt } from "./time";

/**
 * One claimed run, driven to its next resting point: each call to the app's serve() handler runs
 * the function up to its next step, and the answer (ops) is memoised or recorded before the next
 * call. Every write is conditional on the lease; a lost lease ends the drive without writing.
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

/** The claim was lost (lease expired and taken over, run cancelled, or this process "died"). */
export class LostRun extends Error {}
const lostRuns = brand<LostRun>("lost-run");
lostRuns.mark(LostRun);
export const isLostRun = lostRuns.is;

type RunState = {
  steps: Record<string, MemoizedStep>;
  stack: string[];
  attempt: number;
  parallel: boolean;
  /** What the run waits on; only this holder adds ops, so this is a superset of the database's. */
  ops: OpRow[];
  /** Something was memoised since the last discovery call. */
  dirty: boolean;
};

export class RunDriver {
  private readonly lease: string;
  private readonly state: RunState;

  constructor(
    private readonly host: DriverHost,
    private readonly run: ClaimedRun,
  ) {
    this.lease = run.lease!;
    this.state = { steps: run.steps, stack: run.stack, attempt: run.attempt, parallel: run.parallel, ops: [], dirty: true };
  }

  /** Drives the claimed run until it ends, parks (timer, event, retry) or the claim is lost. */
  async drive(): Promise<void> {
    const { run: claimed, host } = this;
    const state = this.state;
    if (!claimed.fresh) state.ops = claimed.ops ?? (await loadOps(await host.getDb(), claimed.id));
    let renew: NodeJS.Timeout | undefined;
    if (!host.manual) {
      renew = setInterval(() => void this.renewLease(), Math.max(1000, Math.floor(host.leaseMs / 3)));
      renew.unref?.();
    }
    try {
      if (!host.registry.get(claimed.functionId)) {
        await this.finish({
          status: "failed",
          error: { name: "FunctionNotFound", message: `function ${claimed.functionId} is not served by this app` },
        });
        return;
      }
      for (let calls = 0; ;) {
        this.assertAlive();
        if (host.stopping() || calls >= MAX_CALLS_PER_CLAIM) {
          await this.park("queued", host.clock.now());
          return;
        }
        const now = host.clock.now();
        // 1. Timers and wait timeouts that are due resolve to null.
        const expired = state.ops.filter((o) => (o.kind === "sleep" || o.kind === "wait") && o.dueAt.getTime() <= now);
        if (expired.length) {
          await this.resolveExpired(expired, now);
          continue;
        }
        // 2. Planned parallel steps that are due run, each in its own call.
        const due = state.ops.filter((o) => o.kind === "step" && o.dueAt.getTime() <= now);
        if (due.length) {
          calls += due.length;
          const failed = await this.runPlannedSteps(due.slice(0, PARALLEL_STEPS));
          if (failed) {
            await this.finish({ status: "failed", error: failed });
            return;
          }
          continue;
        }
        // 3. Nothing new since the last call: wait for the earliest timer, event or retry.
        if (!state.dirty) {
          await this.parkUntilNext();
          return;
        }
        calls++;
        const outcome = await callFunction(
          host.transport,
          {
            functionId: claimed.functionId,
            stepId: "step",
            event: claimed.event,
            steps: state.steps,
            ctx: {
              runId: claimed.id,
              attempt: state.attempt,
              maxAttempts: claimed.maxAttempts,
              disableImmediateExecution: state.parallel,
              stack: state.stack,
            },
          },
          host.clock.now(),
        );
        this.assertAlive();
        state.dirty = false;
        const done = await this.applyDiscovery(outcome);
        if (done) return;
      }
    } catch (err) {
      if (isLostRun(err)) return;
      throw err;
    } finally {
      clearInterval(renew);
    }
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

  /** Applies the answer to a discovery call; returns true when the claim is over. */
  private async applyDiscovery(outcome: CallOutcome): Promise<boolean> {
    const { host, state } = this;
    const maxAttempts = this.run.maxAttempts;
    const now = host.clock.now();
    if (outcome.kind === "complete") {
      await this.finish({ status: "completed", output: outcome.output });
      return true;
    }
    if (outcome.kind === "error") {
      if (outcome.retriable && state.attempt + 1 < maxAttempts) {
        await this.commit({ attempt: state.attempt + 1 });
        await this.park("queued", now + (outcome.retryAfterMs ?? host.backoff(state.attempt)));
        return true;
      }
      await this.finish({ status: "failed", error: outcome.error });
      return true;
    }
    const ops = outcome.ops;
    const unsupported = ops.find((op) => !KNOWN_OPS.has(op.op));
    if (unsupported) {
      const what = UNSUPPORTED_OPS[unsupported.op] ?? `the ${unsupported.op} op`;
      await this.finish({
        status: "failed",
        error: { name: "UnsupportedByEmbeddedExecutor", message: `${what} needs an Inngest server; the embedded executor does not run it` },
      });
      return true;
    }
    const complete = ops.find((op) => op.op === "RunComplete");
    if (complete) {
      await this.finish({ status: "completed", output: complete.data ?? null });
      return true;
    }
    if (ops.length === 1 && ops[0]!.op === "StepRun") {
      await this.commit({ memo: { [ops[0]!.id]: { type: "data", data: ops[0]!.data ?? null } }, attempt: 0 });
      return false;
    }
    if (ops.length === 1 && (ops[0]!.op === "StepFailed" || (ops[0]!.op === "StepError" && state.attempt + 1 >= maxAttempts))) {
      await this.commit({ memo: { [ops[0]!.id]: { type: "error", error: ops[0]!.error ?? null } }, attempt: 0 });
      return false;
    }
    if (ops.length === 1 && ops[0]!.op === "StepError") {
      await this.commit({ attempt: state.attempt + 1 });
      await this.park("queued", now + (outcome.retryAfterMs ?? host.backoff(state.attempt)));
      return true;
    }
    await this.addOps(ops, now);
    return false;
  }

  /** Records newly reported steps, timers and waits (ignoring any already pending or memoised). */
  private async addOps(ops: Op[], now: number) {
    const { host, run, lease, state } = this;
    const pending = new Set(state.ops.map((o) => o.stepId));
    const rows: OpRow[] = [];
    for (const op of ops) {
      if (pending.has(op.id) || op.id in state.steps) continue;
      pending.add(op.id);
      const base = {
        runId: run.id,
        stepId: op.id,
        displayName: op.displayName ?? op.name ?? null,
        attempt: 0,
        createdAt: new Date(now),
        eventName: null,
        expression: null,
        matchValue: null,
      };
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
    const db = await host.getDb();
    // One statement: the lease, the flag and the ops (a queued job's status check ends here).
    const current = rows.length
      ? await commitRunWithOps(db, run.id, lease, parallel, rows, now, host.leaseMs)
      : await commitRun(db, run.id, lease, { parallel }, now, host.leaseMs);
    if (!current) throw new LostRun();
    state.steps = current.steps;
    state.stack = current.stack;
    state.parallel = parallel;
    state.ops.push(...rows);
  }

  /** Runs due planned steps, each in its own call; returns an error if one ended the run. */
  private async runPlannedSteps(due: OpRow[]): Promise<unknown> {
    const { host, run, lease, state } = this;
    const maxAttempts = run.maxAttempts;
    const results = await Promise.all(
      due.map(async (op) => ({
        op,
        outcome: await callFunction(
          host.transport,
          {
            functionId: run.functionId,
            stepId: op.stepId,
            event: run.event,
            steps: state.steps,
            ctx: { runId: run.id, attempt: op.attempt, maxAttempts, disableImmediateExecution: true, stack: state.stack },
          },
          host.clock.now(),
        ),
      })),
    );
    this.assertAlive();
    const now = host.clock.now();
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
        retries.push({ op, dueAt: now + (retryAfter ?? host.backoff(op.attempt)) });
      } else {
        return outcome.kind === "error"
          ? outcome.error
          : {
              name: "ProtocolError",
              message: `unexpected answer to planned step ${op.displayName ?? op.stepId}: ${JSON.stringify(outcome).slice(0, 300)}`,
            };
      }
    }
    const db = await host.getDb();
    await db.transaction(async (tx) => {
      const current = await commitRun(tx, run.id, lease, { memo }, now, host.leaseMs);
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
  private async resolveExpired(expired: OpRow[], now: number) {
    const { host, run, lease, state } = this;
    // One statement (each of a queued job's status checks starts here, when its wait times out).
    const current = await resolveExpiredOps(
      await host.getDb(),
      run.id,
      lease,
      expired.map((o) => o.stepId),
      now,
      host.leaseMs,
    );
    if (!current) throw new LostRun();
    state.steps = current.steps;
    state.stack = current.stack;
    const gone = new Set(expired.map((o) => o.stepId));
    state.ops = state.ops.filter((o) => !gone.has(o.stepId));
    state.dirty = true;
  }

  private async commit(patch: { memo?: Record<string, MemoizedStep>; attempt?: number }) {
    const { host, run, lease, state } = this;
    this.assertAlive();
    const current = await commitRun(await host.getDb(), run.id, lease, patch, host.clock.now(), host.leaseMs);
    if (!current) throw new LostRun();
    state.steps = current.steps;
    state.stack = current.stack;
    if (patch.attempt !== undefined) state.attempt = patch.attempt;
    if (patch.memo && Object.keys(patch.memo).length) state.dirty = true;
  }

  private async parkUntilNext() {
    const { host } = this;
    const ops = this.state.ops;
    const now = host.clock.now();
    if (!ops.length) {
      // The function reported nothing new and waits on nothing: a protocol surprise. Retry later
      // rather than spin.
      await this.park("queued", now + host.backoff(0));
      return;
    }
    const next = Math.min(...ops.map((o) => o.dueAt.getTime()));
    const status = ops.some((o) => o.kind === "wait") ? "waiting" : ops.some((o) => o.kind === "sleep") ? "sleeping" : "queued";
    await this.park(status, next);
  }

  private async park(status: "queued" | "sleeping" | "waiting", nextAt: number) {
    const { host, run, lease } = this;
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
    // Only this holder creates ops, so with none in memory there are none in the database.
    const hasOps = this.state.ops.length > 0;
    this.assertAlive();
    const now = host.clock.now();
    const out = emptyResult();
    const db = await host.getDb();
    // Nothing else to touch (no ops, no concurrency slot, nobody listening for the system events):
    // one statement, no transaction.
    const simple = !hasOps && !run.concurrency && !(await systemEventsListened(db, host.registry, result.status));
    const done = simple
      ? await finishRun(db as unknown as Tx, host.registry, run, lease, result, now, out, false, false)
      : await host.transaction((tx) => finishRun(tx, host.registry, run, lease, result, now, out, hasOps));
    if (!done) throw new LostRun();
    if (result.status === "failed") log.warn("job run failed", { runId: run.id, functionId: run.functionId, error: result.error });
    host.afterWrite(out);
  }
}
