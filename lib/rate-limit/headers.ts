import type { LimitResult } from "./sliding-window";

/**
 * The four rate-limit headers (exposed to browser scripts by lib/http/cors.ts). Reset is an epoch
 * timestamp in seconds; Retry-After (refusals only) is whole seconds, at least 1.
 */
export function rateLimitHeaders(result: LimitResult, now = Date.now()): Record<string, string> {
  const headers: Record<string, string> = {
    "X-RateLimit-Limit": String(result.limit),
    "X-RateLimit-Remaining": String(result.remaining),
    "X-RateLimit-Reset": String(Math.ceil(result.resetAtMs / 1000)),
  };
  if (!result.allowed) headers["Retry-After"] = String(Math.max(1, Math.ceil((result.resetAtMs - now) / 1000)));
  return headers;
}
