import { env, EnvError, type Env } from "@/lib/core/env";

/**
 * Where Inngest functions run. `server`: an Inngest server (Cloud, self-hosted `inngest start`,
 * or the dev server) calls `/api/inngest`; `embedded`: the in-process executor of lib/jobs drives
 * the same functions through the same handler, keeping its state in the app's database.
 */
export type JobsMode = { kind: "embedded" } | { kind: "server"; dev: boolean };

const OFF = new Set(["0", "false", "no", "off"]);

export function jobsMode(config: Env = env()): JobsMode {
  const { INNGEST_DEV, INNGEST_EVENT_KEY, INNGEST_SIGNING_KEY } = config;
  // INNGEST_DEV may be "1" or the dev server's URL (the SDK's own reading); "0" means "not dev".
  if (INNGEST_DEV && !OFF.has(INNGEST_DEV.toLowerCase())) return { kind: "server", dev: true };
  if (INNGEST_EVENT_KEY && INNGEST_SIGNING_KEY) return { kind: "server", dev: false };
  if (INNGEST_EVENT_KEY || INNGEST_SIGNING_KEY) {
    // Half a configuration would silently fall back to the embedded executor; refuse it instead.
    throw new EnvError([
      `${INNGEST_EVENT_KEY ? "INNGEST_SIGNING_KEY" : "INNGEST_EVENT_KEY"}: required when ${INNGEST_EVENT_KEY ? "INNGEST_EVENT_KEY" : "INNGEST_SIGNING_KEY"} is set (or set INNGEST_DEV for the dev server)`,
    ]);
  }
  return { kind: "embedded" };
}
