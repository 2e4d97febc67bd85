import { randomBytes } from "node:crypto";
import { Inngest, type ClientOptions } from "inngest";
import { EmbeddedDispatch } from "@/lib/jobs/event-sink";
import { jobsMode } from "@/lib/jobs/mode";
import { sdkLogger } from "@/lib/jobs/sdk-logger";

/** The app id: the prefix of every function's composite id (`generation-gateway-<fn>`). */
export const APP_ID = "generation-gateway";

const globalForKey = globalThis as unknown as { __gwEmbeddedSigningKey?: string };

/**
 * Embedded mode signs the executor's in-process calls like an Inngest server would, with a key
 * that exists only in this process (kept across dev hot reloads so handler and executor agree).
 */
function embeddedSigningKey(): string {
  globalForKey.__gwEmbeddedSigningKey ??= `signkey-embedded-${randomBytes(32).toString("hex")}`;
  return globalForKey.__gwEmbeddedSigningKey;
}

function clientOptions(): ClientOptions {
  const base = { id: APP_ID, logger: sdkLogger, internalLogger: sdkLogger } satisfies ClientOptions;
  if (jobsMode().kind === "server") {
    // Keys, dev mode and URLs come from INNGEST_* variables, which the SDK reads itself.
    return base;
  }
  return {
    ...base,
    // Cloud mode, so the served handler verifies the signature of every call.
    isDev: false,
    // Only gets past the SDK's "no event key" check: EmbeddedDispatch never sends over HTTP.
    eventKey: "embedded",
    signingKey: embeddedSigningKey(),
    // Checkpointing posts step results to a server's API; the executor memoises them itself.
    checkpointing: false,
    middleware: [EmbeddedDispatch],
  };
}

/** The one Inngest client: server mode when INNGEST_* is configured, else the embedded executor. */
export const inngest = new Inngest(clientOptions());
