import { setMaxListeners } from "node:events";
import { log } from "@/lib/core/logger";

/**
 * Graceful shutdown on SIGTERM / SIGINT (`npm start` execs `next start`, so the signal reaches
 * this process). Next.js's own handler (node_modules/next/dist/server/lib/start-server.js) closes
 * the listening socket and idle connections, waits for open requests, then calls
 * `process.exit(143)`. Alongside it, this drain:
 * 1. ends open event streams at once with a final `reconnect` event (lib/http/sse.ts), so a client
 *    resumes on another instance, or on this one once it is back, from its Last-Event-ID;
 * 2. lets sync runs in flight finish for up to SHUTDOWN_GRACE_MS, then makes each one left hand
 *    its job to the queue (lib/generation/run-sync.ts): its client gets 504 `timeout` with the
 *    request id, and the job goes on (in another instance, or here after the restart);
 * 3. stops the embedded job executor (no new claims; runs in flight hand themselves back at their
 *    next step boundary, within the same grace);
 * 4. closes the database once Next.js is done with its requests (its `process.exit` is held until
 *    then), and logs what it did. A hard cap (grace + SHUTDOWN_HARD_CAP_MS) exits regardless.
 *
 * The state lives on `globalThis`: the production build copies modules into several server chunks
 * (instrumentation, each route), and the drain must see every chunk's streams and runs.
 */

/** After the grace, how long handed-over runs get to record their hand-over and answer. */
const HANDOVER_MS = 10_000;
/** Beyond the grace and the hand-over, the last wait for Next.js and the database. */
const SHUTDOWN_HARD_CAP_MS = 20_000;

export type ShutdownHooks = {
  /** Stops background work within `graceMs`; returns counts for the log line. */
  stopJobs?: (graceMs: number) => Promise<Record<string, number | string>>;
  /** Closes the database (after Next.js finished its requests). */
  closeDatabase?: () => Promise<void>;
};

export type ShutdownCounts = {
  streamsEnded: number;
  syncRunsFinished: number;
  syncRunsHandedOver: number;
};

type State = {
  /** Aborted when shutdown starts: streams end, new streams end at once. */
  stopping: AbortController;
  /** Aborted when the grace is over: sync runs still going hand their jobs over. */
  graceOver: AbortController;
  syncRuns: Set<Promise<void>>;
  /** What each sync run in flight does when the grace is over (see drainableRun). */
  graceFollowers: Set<() => void>;
  counts: ShutdownCounts;
  installed: boolean;
  drained?: Promise<void>;
};

const g = globalThis as unknown as { __gwShutdown?: State };

function state(): State {
  if (!g.__gwShutdown) {
    const stopping = new AbortController();
    const graceOver = new AbortController();
    // Every open stream and sync run listens to these two.
    setMaxListeners(0, stopping.signal, graceOver.signal);
    const graceFollowers = new Set<() => void>();
    graceOver.signal.addEventListener("abort", () => graceFollowers.forEach((follower) => follower()), { once: true });
    g.__gwShutdown = {
      stopping,
      graceOver,
      syncRuns: new Set(),
      graceFollowers,
      counts: { streamsEnded: 0, syncRunsFinished: 0, syncRunsHandedOver: 0 },
      installed: false,
    };
  }
  return g.__gwShutdown;
}

/** Aborted once shutdown has started (event streams listen to it). */
export const shutdownStarted = (): AbortSignal => state().stopping.signal;

/** Whether the process is shutting down (for /health and for refusing new long work). */
export const isShuttingDown = (): boolean => state().stopping.signal.aborted;

/** A stream ended by the shutdown (lib/http/sse.ts counts them for the log line). */
export function countStreamEnded(): void {
  state().counts.streamsEnded++;
}

/**
 * A sync run in flight: the drain waits for it up to the grace. `onGraceOver` is called when the
 * grace is over (at once when the run starts that late): the run hands its job to the queue then.
 * Call `done()` once its answer is decided. The runs follow the grace as entries of one Set, not
 * as listeners of its signal each: a signal's listener costs O(listeners) to add and remove, and a
 * thousand sync runs in flight adding one each cost ≈ 5 % of the server's CPU (docs/engine.md).
 */
export function drainableRun(onGraceOver: () => void): { done: () => void } {
  const s = state();
  let resolve!: () => void;
  const settled = new Promise<void>((r) => (resolve = r));
  s.syncRuns.add(settled);
  if (s.graceOver.signal.aborted) onGraceOver();
  else s.graceFollowers.add(onGraceOver);
  let finished = false;
  const done = () => {
    if (finished) return;
    finished = true;
    s.graceFollowers.delete(onGraceOver);
    s.syncRuns.delete(settled);
    if (s.graceOver.signal.aborted) s.counts.syncRunsHandedOver++;
    else if (s.stopping.signal.aborted) s.counts.syncRunsFinished++;
    resolve();
  };
  return { done };
}

/** Installs the SIGTERM / SIGINT handlers (once per process). */
export function installShutdown(graceMs: number, hooks: ShutdownHooks = {}): void {
  const s = state();
  if (s.installed) return;
  s.installed = true;
  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    process.on(signal, () => void beginShutdown(signal, graceMs, hooks));
  }
}

/**
 * Starts the drain (once; a second signal changes nothing) and resolves when it is over. Exported
 * for tests; the process calls it from its signal handlers.
 */
export function beginShutdown(signal: string, graceMs: number, hooks: ShutdownHooks = {}, exit = holdExit): Promise<void> {
  const s = state();
  if (s.drained) return s.drained;
  const startedAt = Date.now();
  s.drained = (async () => {
    log.info("shutting down: no new connections, draining", { signal, graceMs, syncRuns: s.syncRuns.size });
    s.stopping.abort();
    const jobs = hooks.stopJobs?.(graceMs).catch((error) => (log.error("job executor did not stop cleanly", { error }), {}));
    let grace: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([Promise.all(s.syncRuns), new Promise((resolve) => (grace = setTimeout(resolve, graceMs)))]);
    clearTimeout(grace);
    s.graceOver.abort();
    let handover: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([Promise.all(s.syncRuns), new Promise((resolve) => (handover = setTimeout(resolve, HANDOVER_MS)))]);
    clearTimeout(handover);
    log.info("shutdown drained", { ...s.counts, ...(await jobs), ms: Date.now() - startedAt });
  })();
  exit(s.drained, graceMs, hooks, startedAt);
  return s.drained;
}

/**
 * Next.js calls `process.exit(143)` as soon as its server has closed, which may come before the
 * drain is over (nothing holds a connection while jobs stop). Its exit is held until the drain is
 * over and the database closed; the hard cap exits anyway (a client holding a connection open).
 * Without Next.js's handler (NEXT_MANUAL_SIG_HANDLE), the drain exits by itself.
 */
function holdExit(drained: Promise<void>, graceMs: number, hooks: ShutdownHooks, startedAt: number): void {
  const exit = process.exit.bind(process);
  let exiting = false;
  const finish = async (code: number) => {
    if (exiting) return;
    exiting = true;
    await drained;
    await hooks.closeDatabase?.().catch((error) => log.error("database did not close cleanly", { error }));
    log.info("shutdown complete", { exitCode: code, ms: Date.now() - startedAt });
    exit(code);
  };
  process.exit = ((code?: number | string | null) => void finish(Number(code ?? process.exitCode ?? 0))) as typeof process.exit;
  if (process.env.NEXT_MANUAL_SIG_HANDLE) void drained.then(() => finish(0));
  setTimeout(
    () => {
      log.error("shutdown cap reached: exiting with work still open", { capMs: graceMs + HANDOVER_MS + SHUTDOWN_HARD_CAP_MS });
      exit(1);
    },
    graceMs + HANDOVER_MS + SHUTDOWN_HARD_CAP_MS,
  ).unref();
}
