import { randomUUID } from "node:crypto";
import { getDb, type Db, type Tx } from "@/db/client";
import type { JobEvent } from "@/db/schema";
import { log } from "@/lib/core/logger";
import { systemClock, type Clock } from "./clock";
import { syncFunctions, type Transport } from "./protocol";
import { buildRegistry, type Registry } from "./registry";
import { RunDriver, type DriverHost } from "./run-driver";
import {
  claimRuns,
  emptyResult,
  fireDueCrons,
  ingestEvents,
  ingestOne,
  nextCronAt,
  nextDueAt,
  normalizeEvent,
  retryingTransaction,
  syncCronSchedules,
  type ClaimedRun,
  type FinishedRun,
  type Hold,
  type IngestResult,
} from "./store";
import { backoffMs } from "./time";
import { WakeTimer } from "./wake-timer";

/**
 * The embedded executor: a small Inngest server for one app, kept in the app's database (what it
 * reproduces of Inngest, and what it refuses: README.md). It learns the functions through an
 * in-band sync, stores events, and drives each run through the real serve() handler, memoising
 * every step before the next step runs. A run is held under a lease that expires, so a crashed
 * instance's runs are picked up by the next one.
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
  /** Delay before attempt n (n ≥ 1: the n-th retry). */
  backoff?: (attempt: number) => number;
  /** Called after runs reach a final status (completed, failed). */
  onFinished?: (runs: FinishedRun[]) => void;
};

/** The longest an instance goes without reading the cron schedules again. */
const CRON_RECHECK_MS = 60_000;

export class JobExecutor {
  readonly id = randomUUID().slice(0, 8);
  readonly clock: Clock;
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
  /** Slots taken by sends whose held run is not in `inflight` yet. */
  private holding = 0;
  /** What each claimed run's driver uses of this executor. */
  private readonly host: DriverHost;
  private readonly timer: WakeTimer;
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
    this.timer = new WakeTimer(this.clock, () => void this.tick());
    this.host = {
      transport: opts.transport,
      clock: this.clock,
      registry,
      leaseMs: this.leaseMs,
      manual: this.manual,
      getDb: () => this.getDb(),
      transaction: (work) => this.transaction(work),
      backoff: (attempt) => this.backoff(attempt),
      dead: () => this.dead,
      stopping: () => this.stopping,
      wakeAt: (at) => this.wakeAt(at),
      kick: () => this.kick(),
      afterWrite: (out) => this.afterWrite(out),
    };
  }

  /** Syncs the app's functions (refusing what it cannot run) and records their cron schedules. */
  static async create(opts: ExecutorOptions): Promise<JobExecutor> {
    const registry = buildRegistry(await syncFunctions(opts.transport));
    const executor = new JobExecutor(registry, opts);
    const db = await executor.getDb();
    await syncCronSchedules(db, registry, executor.clock.now());
    return executor;
  }

  /** Stores events (deduped by id) and acts on them; the embedded `inngest.send()` lands here. */
  async send(raw: unknown | unknown[]): Promise<{ ids: string[] }> {
    const now = this.clock.now();
    const events = (Array.isArray(raw) ? raw : [raw]).map((e) => normalizeEvent(e, now));
    if (!events.length) return { ids: [] };
    // A `ts` ahead of the wall clock (the sender's) delays the runs the event starts by as much, on
    // this executor's clock (a test's ManualClock too): Inngest's delayed functions.
    const wall = Date.now();
    const startOf = (event: JobEvent) => now + Math.max(0, event.ts - wall);
    const db = await this.getEventsDb();
    if (events.length > 1) {
      this.afterWrite(await this.transaction((tx) => ingestEvents(tx, this.registry, events, now, emptyResult(), startOf), db));
      return { ids: events.map((e) => e.id) };
    }
    const hold = this.hold();
    try {
      this.afterWrite(await ingestOne(db, this.registry, events[0]!, now, startOf(events[0]!), hold));
    } finally {
      if (hold) this.holding--;
    }
    return { ids: events.map((e) => e.id) };
  }

  /**
   * A run this process can start now is created claimed by it and driven at once: no claim
   * statement and no tick between a send and its run (auto mode only; tests drain by hand). Its
   * slot is taken before the statement, so sends at once never run more than `concurrency`.
   */
  private hold(): Hold | undefined {
    if (!this.started || this.stopping || this.dead) return undefined;
    if (this.concurrency - this.inflight.size - this.holding <= 0) return undefined;
    this.holding++;
    return { owner: this.id, leaseMs: this.leaseMs, limit: 1 };
  }

  private afterWrite(out: IngestResult) {
    for (const run of out.held) this.track(run);
    if (out.finished.length) this.onFinished?.(out.finished);
    // New runs, woken runs, or runs promoted past a concurrency limit are due now.
    if (out.created.length || out.woken.length || out.promoted) this.kick();
    // Runs created for later: this process looks when the first is due (no claim now).
    else if (out.later < Infinity) this.wakeAt(out.later);
  }

  private async transaction<T>(work: (tx: Tx) => Promise<T>, on?: Db): Promise<T> {
    return retryingTransaction(on ?? (await this.getDb()), work);
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
    this.timer.schedule(at);
  }

  private async tick() {
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
    const done = new RunDriver(this.host, run)
      .drive()
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
    // Another instance may fire first and move the rows on: then this one looks at the old time,
    // finds nothing due and reads the new one. A schedule added by a newer deploy (an earlier
    // time) is that deploy's to fire; a minute bounds how stale this copy gets. Looking every poll
    // interval was an idle transaction a second per instance (bench/RESULTS.md, 2026-11-28).
    this.nextCronAt = Math.min(nextAt ?? Infinity, now + CRON_RECHECK_MS);
    this.afterWrite(out);
  }

  /** Stops claiming; runs in flight hand themselves back at their next step boundary. */
  async stop(timeoutMs = 10_000): Promise<void> {
    this.stopping = true;
    this.timer.clear();
    const all = Promise.allSettled([...this.inflight.values()]);
    await Promise.race([all, new Promise((resolve) => setTimeout(resolve, timeoutMs).unref?.())]);
  }

  /**
   * Tests: behaves as if the process died this instant. Nothing it holds is written again; its
   * leases expire and another executor takes the runs over.
   */
  kill(): void {
    this.dead = true;
    this.timer.clear();
  }

  /** Tests: runs everything due now (manual mode), until nothing is due and nothing is in flight. */
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

  /** Whether it takes work: installed and neither stopped nor killed (for /health). */
  get running(): boolean {
    return !this.stopping && !this.dead;
  }

  /** Runs this process is executing now (for /metrics). */
  get inflightCount(): number {
    return this.inflight.size;
  }
}

export type { JobEvent };
