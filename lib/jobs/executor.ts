import { randomUUID } from "node:crypto";
import { eq, inArray, sql } from "drizzle-orm";
import { getDb, type Db, type Tx } from "@/db/client";
import { jobRuns, type JobEvent } from "@/db/schema";
import { log } from "@/lib/logger";
import { isManualClock, systemClock, type Clock, type ManualClock } from "./clock";
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
  syncCronSchedules,
  type ClaimedRun,
  type FinishedRun,
  type IngestResult,
} from "./store";
import { backoffMs } from "./time";

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
  /** What each claimed run's driver uses of this executor. */
  private readonly host: DriverHost;
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
    this.host = {
      transport: this.transport,
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
    if (!isManualClock(this.clock)) throw new Error("advance() needs a ManualClock");
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

  /** Events this executor can see the runs of (tests and the waiting helpers use it). */
  async runsForEvent(eventId: string) {
    const db = await this.getDb();
    return db.select().from(jobRuns).where(eq(jobRuns.eventId, eventId));
  }

  /** Whether it takes work: installed and neither stopped nor killed (for /health). */
  get running(): boolean {
    return !this.stopping && !this.dead;
  }

  /** Runs this process is executing now (for /metrics). */
  get inflightCount(): number {
    return this.inflight.size;
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

export type { JobEvent };
