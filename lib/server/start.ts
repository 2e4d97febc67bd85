import { closeDb, getDbHandle } from "@/db/client";
import { env, isEnvError } from "@/lib/core/env";
import { jobsMode } from "@/lib/jobs/mode";
import { log } from "@/lib/core/logger";
import { appUrlMismatch, listeningPort } from "../core/app-url";
import { installShutdown, isShuttingDown } from "../core/shutdown";

const globalForStart = globalThis as unknown as { __gwStarted?: Promise<void> };

/** Start-up work, once per process (guarded against dev hot reloads). */
export function startServer(): Promise<void> {
  globalForStart.__gwStarted ??= (async () => {
    try {
      env();
      jobsMode();
    } catch (err) {
      if (!isEnvError(err)) throw err;
      // A bad setting stops start-up, naming the variable.
      console.error(err.message);
      process.exit(1);
    }
    // Auto top-up and the low-balance mail follow the ledger's debits (the ledger does not know payments).
    (await import("@/lib/billing/payments/after-debit")).installDebitFollowUps();
    // The catalog's seed models are inserted whenever the database opens (db/ does not know the catalog).
    (await import("@/lib/catalog/seed")).installCatalogSeed();
    // The jobs runtime drives the app's functions without importing them (they sit above it).
    (await import("@/lib/jobs/functions")).provideJobFunctions(async () => (await import("@/inngest/functions")).functions);
    reportAppUrl();
    // Usage counts held in memory (lib/rate-limit/usage-counts.ts) are written before the database closes.
    const closeDatabase = async () => {
      await (
        await import("@/lib/rate-limit/usage-counts")
      )
        .flushUsageCounts()
        .catch((error) => log.warn("usage counts not written", { error }));
      await closeDb();
    };
    installShutdown(env().SHUTDOWN_GRACE_MS, { stopJobs, closeDatabase });
    try {
      const handle = await getDbHandle();
      log.info("database ready", { kind: handle.kind, ...(handle.port ? { pglitePort: handle.port } : {}) });
      // Webhooks the local simulator owed before a restart are sent again (simulators/local-provider).
      (await import("@/lib/provider/registry")).startProviders();
      // Beating from the start: sync jobs of an instance that died (this one before a restart) are taken over.
      await (await import("@/lib/generation")).thisRunner();
    } catch (err) {
      // Keep serving: /health reports the database as down and requests retry opening it.
      log.error("database unavailable at start-up", { error: err });
    }
    await startJobs();
  })();
  return globalForStart.__gwStarted;
}

/** Where links point: the listening address unless APP_URL says otherwise; a visible mismatch is logged once. */
function reportAppUrl(): void {
  const { APP_URL } = env();
  if (!process.env.APP_URL) {
    log.info("APP_URL is not set: links use the listening address", { appUrl: APP_URL });
    return;
  }
  const problem = appUrlMismatch(APP_URL, listeningPort());
  if (problem) log.warn(problem, { variable: "APP_URL", appUrl: APP_URL, listeningPort: listeningPort() });
}

/** Shutdown: the embedded executor takes no new runs; those in flight hand back at their next step. */
async function stopJobs(graceMs: number): Promise<Record<string, number | string>> {
  if (jobsMode().kind !== "embedded") return { jobs: "inngest server" };
  const { currentExecutor } = await import("@/lib/jobs/runtime");
  const executor = currentExecutor();
  if (!executor) return { jobs: "not running" };
  const jobsInFlight = executor.inflightCount;
  await executor.stop(graceMs);
  return { jobsInFlight, jobsLeftRunning: executor.inflightCount };
}

/**
 * Background jobs: with no Inngest server configured, the embedded executor runs the functions in
 * this process. A function it cannot honour stops start-up (UnsupportedFunctionError names it); a
 * database that is down only delays it: start-up is retried every few seconds (and a send starts it).
 */
async function startJobs(): Promise<void> {
  // A SIGTERM during start-up (migrations can take a while) leaves the executor unstarted.
  if (isShuttingDown()) return;
  const mode = jobsMode();
  if (mode.kind !== "embedded") {
    log.info("background jobs run under an Inngest server", { dev: mode.dev });
    return;
  }
  const { startEmbeddedJobs } = await import("@/lib/jobs/runtime");
  const { isUnsupportedFunctionError } = await import("@/lib/jobs/registry");
  try {
    await startEmbeddedJobs();
  } catch (err) {
    if (isUnsupportedFunctionError(err)) {
      console.error(err.message);
      process.exit(1);
    }
    log.error("embedded job executor did not start; retrying in 5 s", { error: err });
    setTimeout(() => void startJobs(), 5000).unref();
  }
}
