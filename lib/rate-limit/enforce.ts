import { env } from "@/lib/env";
import { ApiError } from "@/lib/http/errors";
import { clientIp } from "./client-ip";
import { rateLimitHeaders } from "./headers";
import type { RateLimitRule, RuleContext } from "./rules";
import { countKeyRequest, hitKeyWindow, hitWindow, type LimitResult } from "./sliding-window";

function refuse(result: LimitResult, message: string, now: number): ApiError {
  const headers = rateLimitHeaders(result, now);
  return new ApiError("rate_limited", `${message}; retry after ${headers["Retry-After"]} s`, {}, headers);
}

function subjectOf(rule: RateLimitRule, rc: RuleContext): string | null {
  if (rule.by === "ip") return clientIp(rc.req);
  if (rule.by === "user") return rc.principal?.userId ?? null;
  return rc.principal?.apiKeyId ?? null;
}

const keyOf = (rc: RuleContext) => (rc.principal?.source === "api_key" && rc.principal.apiKeyId ? rc.principal : null);

/** The per-key limit (and the key's usage counters) for a key whose limit is on. */
async function applyKeyLimit(rc: RuleContext, now: number): Promise<LimitResult | null> {
  const p = keyOf(rc);
  if (!p?.keyLimit?.enabled) return null;
  const max = p.keyLimit.max ?? env().RATE_LIMIT_KEY_PER_HOUR;
  const result = await hitKeyWindow(rc.db, { apiKeyId: p.apiKeyId!, max, windowMs: p.keyLimit.windowMs, now });
  if (!result.allowed) throw refuse(result, `API key limit reached: ${max} requests per ${p.keyLimit.windowMs / 1000} s`, now);
  return result;
}

/**
 * Applies the per-key limit, then the route's rules, in order; the first refusal throws 429
 * `rate_limited` with Retry-After and the X-RateLimit-* headers. Returns the tightest passing
 * window (fewest remaining) for the success response's headers, or null when nothing applied.
 */
export async function enforceRateLimits(
  rc: RuleContext,
  rules: readonly RateLimitRule[] = [],
  now = Date.now(),
): Promise<LimitResult | null> {
  // A key whose limit is off can never be refused: its usage counters move in the first route
  // rule's statement (or a statement of their own when no rule applies), one round trip fewer.
  const key = keyOf(rc);
  let uncounted = key && !key.keyLimit?.enabled ? key.apiKeyId! : null;
  let tightest = await applyKeyLimit(rc, now);
  for (const rule of rules) {
    const subject = subjectOf(rule, rc);
    if (subject === null) continue;
    const max = typeof rule.max === "function" ? await rule.max(rc) : rule.max;
    const result = await hitWindow(rc.db, { key: `${rule.name}:${subject}`, max, windowMs: rule.windowMs, now, countKey: uncounted });
    uncounted = null;
    if (!result.allowed) throw refuse(result, rule.describe(max), now);
    if (!tightest || result.remaining < tightest.remaining) tightest = result;
  }
  if (uncounted) await countKeyRequest(rc.db, uncounted, now);
  return tightest;
}
