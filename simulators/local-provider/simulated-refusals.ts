import { ProviderUnavailableError } from "@/lib/provider/errors";

/**
 * Per-process attempt counts for the "fail the first N attempts" markers (`[fail:provider:2]`,
 * `[fail:result:1]`), bounded so a long-running server does not grow them forever.
 */
export class AttemptCounter {
  private readonly counts = new Map<string, number>();

  constructor(private readonly maxTracked = 10_000) {}

  /** Counts one more attempt under `key` and returns its number (1 for the first). */
  next(key: string): number {
    const n = (this.counts.get(key) ?? 0) + 1;
    this.counts.set(key, n);
    if (this.counts.size > this.maxTracked) this.counts.delete(this.counts.keys().next().value!);
    return n;
  }
}

/** The transient refusal of a submit under `[fail:rate_limit]` or `[fail:provider]`. */
export function submitRefusal(mode: "rate_limit" | "provider"): ProviderUnavailableError {
  return mode === "rate_limit"
    ? new ProviderUnavailableError("local", "submit", "local provider: simulated rate limit", {
        status: 429,
        retryAfterMs: 1000,
        reason: "rate_limited",
      })
    : new ProviderUnavailableError("local", "submit", "local provider: simulated server error", {
        status: 503,
        reason: "server_error",
      });
}

/** The transient refusal of a result fetch under `[fail:result]`. */
export function resultRefusal(): ProviderUnavailableError {
  return new ProviderUnavailableError("local", "result", "local provider: simulated server error", {
    status: 503,
    reason: "server_error",
  });
}
