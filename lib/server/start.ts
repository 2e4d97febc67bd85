import { getDbHandle } from "@/db/client";
import { env, isEnvError } from "@/lib/env";
import { jobsMode } from "@/lib/jobs/mode";
import { log } from "@/lib/logger";

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
    try {
      const handle = await getDbHandle();
      log.info("database ready", { kind: handle.kind, ...(handle.port ? { pglitePort: handle.port } : {}) });
      // Webhooks the local simulator owed before a restart are sent again (lib/provider/local).
      (await import("@/lib/provider/registry")).startProviders();
    } catch (err) {
      // Keep serving: /health reports the database as down and requests retry opening it.
      log.error("database unavailable at start-up", { error: err });
    }
    await startJobs();
  })();
  return globalForStart.__gwStarted;
}

/**
 * Background jobs: with no Inngest server configured, the embedded executor runs the functions in
 * this process. A function it cannot honour stops start-up (UnsupportedFunctionError names it); a
 * database that is down only delays it: start-up is retried every few seconds (and a send starts it).
 */
async function startJobs(): Promise<void> {
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
