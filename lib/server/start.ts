import { getDbHandle } from "@/db/client";
import { env, EnvError } from "@/lib/env";
import { log } from "@/lib/logger";

const globalForStart = globalThis as unknown as { __gwStarted?: Promise<void> };

/** Start-up work, once per process (guarded against dev hot reloads). */
export function startServer(): Promise<void> {
  globalForStart.__gwStarted ??= (async () => {
    try {
      env();
    } catch (err) {
      if (!(err instanceof EnvError)) throw err;
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
  })();
  return globalForStart.__gwStarted;
}
