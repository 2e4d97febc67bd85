import { log } from "@/lib/core/logger";

type Level = "debug" | "info" | "warn" | "error";

/**
 * What the SDK reports at error level that is not this app's fault: user-code errors (expected on
 * retries) and refused unsigned calls (anyone can probe /api/inngest). Warnings here.
 */
const DOWNGRADED = new Set(["Inngest step error", "Inngest function error", "Signature validation failed"]);

/**
 * The Inngest SDK's logger (its own messages and `ctx.logger` in functions), writing through
 * lib/core/logger so lines are structured, leveled by LOG_LEVEL and secret fields are masked. The SDK
 * logs pino-style: `(fields, message)` or `(message, …rest)`.
 */
function write(requested: Level, args: unknown[]) {
  const [first, second, ...rest] = args;
  const fieldsFirst = first !== null && typeof first === "object" && !(first instanceof Error);
  const message = fieldsFirst
    ? typeof second === "string"
      ? second
      : "inngest"
    : first instanceof Error
      ? first.message
      : String(first ?? "inngest");
  const level: Level = requested === "error" && DOWNGRADED.has(message) ? "warn" : requested;
  if (fieldsFirst) {
    const fields = normalize(first as Record<string, unknown>);
    log[level](message, { source: "inngest", ...fields, ...(rest.length ? { args: rest } : {}) });
    return;
  }
  const extra = [second, ...rest].filter((v) => v !== undefined);
  log[level](message, { source: "inngest", ...(first instanceof Error ? { error: first } : {}), ...(extra.length ? { args: extra } : {}) });
}

function normalize(fields: Record<string, unknown>) {
  return Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, v instanceof Error ? { name: v.name, message: v.message } : v]));
}

export const sdkLogger = {
  debug: (...args: unknown[]) => write("debug", args),
  info: (...args: unknown[]) => write("info", args),
  warn: (...args: unknown[]) => write("warn", args),
  error: (...args: unknown[]) => write("error", args),
};
