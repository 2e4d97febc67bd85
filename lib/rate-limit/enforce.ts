import { confirmKey, needsConfirmation } from "@/lib/auth/resolve";
import type { Principal } from "@/lib/auth/principal";
import { env } from "@/lib/core/env";
import { clientAddress } from "@/lib/net/client-address";
import { DomainError } from "@/lib/core/errors";
import { rateLimitHeaders } from "./headers";
import type { RateLimitRule, RuleContext } from "./rules";
import type { SQL } from "drizzle-orm";
import { hitKeyWindow, hitWindow, type LimitResult } from "./sliding-window";
import { countKeyRequestLater, readKeyStanding } from "./usage-counts";

function refuse(result: LimitResult, message: string, now: number): DomainError {
  const headers = rateLimitHeaders(result, now);
  return new DomainError("rate_limited", `${message}; retry after ${headers["Retry-After"]} s`, {}, headers);
}

function subjectOf(rule: RateLimitRule, rc: RuleContext): string | null {
  if (rule.by === "ip") return clientAddress(rc.req);
  if (rule.by === "user") return rc.principal?.userId ?? null;
  return rc.principal?.apiKeyId ?? null;
}

const keyOf = (rc: RuleContext) => (rc.principal?.source === "api_key" && rc.principal.apiKeyId ? rc.principal : null);

/**
 * Applies the per-key limit, then the route's rules, in order; the first refusal throws 429
 * `rate_limited` with Retry-After and the X-RateLimit-* headers. Returns the tightest passing
 * window (fewest remaining) for the success response's headers, or null when nothing applied,
 * and the principal held to the key's standing that the counting statement read (`confirmKey`:
 * a remembered key lookup is confirmed here). A key whose limit is off is counted later, in
 * memory (usage-counts.ts): its request costs one read of its standing when the lookup was
 * remembered or a route carries a read, none otherwise.
 */
export async function enforceRateLimits(
  rc: RuleContext,
  rules: readonly RateLimitRule[] = [],
  now = Date.now(),
  /**
   * A read to run in the statement that counts a key's request or reads its standing (one round trip for both). Its
   * first row comes back as `carried` (JSON; null: none); `carried` is absent when no key was
   * counted without route rules in between (a session, a route with rules): read it yourself.
   */
  carry?: SQL | null,
): Promise<{ limit: LimitResult | null; principal: Principal | null; carried?: Record<string, unknown> | null }> {
  const key = keyOf(rc);
  let principal = rc.principal;
  // Before a refusal: a key that may no longer call is told so (401/403), not 429.
  const refuseAs = async (result: LimitResult, message: string) => {
    if (principal && needsConfirmation(principal)) await confirmKey(principal, undefined, rc.db);
    return refuse(result, message, now);
  };
  let tightest: LimitResult | null = null;
  // A key whose limit is on: its window and counters in one statement.
  if (key?.keyLimit?.enabled) {
    const max = key.keyLimit.max ?? env().RATE_LIMIT_KEY_PER_HOUR;
    const carrying = carry && rules.length === 0 ? carry : undefined;
    const result = await hitKeyWindow(rc.db, { apiKeyId: key.apiKeyId!, max, windowMs: key.keyLimit.windowMs, now, carry: carrying });
    if (!result.allowed) throw await refuseAs(result, `API key limit reached: ${max} requests per ${key.keyLimit.windowMs / 1000} s`);
    principal = await confirmKey(principal!, result.standing);
    tightest = result;
    if (carrying) return { limit: tightest, principal, carried: result.carried ?? null };
  }
  // A key whose limit is off can never be refused: its counters move in the first route rule's
  // statement (a write anyway), or later with the others in memory when no rule applies.
  let uncounted = key && !key.keyLimit?.enabled ? key.apiKeyId! : null;
  for (const rule of rules) {
    const subject = subjectOf(rule, { ...rc, principal });
    if (subject === null || (rule.applies && !(await rule.applies({ ...rc, principal })))) continue;
    const max = typeof rule.max === "function" ? await rule.max({ ...rc, principal }) : rule.max;
    const result = await hitWindow(rc.db, { key: `${rule.name}:${subject}`, max, windowMs: rule.windowMs, now, countKey: uncounted });
    if (uncounted) principal = await confirmKey(principal!, result.standing);
    uncounted = null;
    if (!result.allowed) throw await refuseAs(result, rule.describe(max));
    if (!tightest || result.remaining < tightest.remaining) tightest = result;
  }
  if (uncounted) {
    // No rule applied: the count waits for the next flush (usage-counts.ts), the standing is read.
    countKeyRequestLater(uncounted, now);
    if (carry) {
      const read = await readKeyStanding(rc.db, uncounted, carry);
      return { limit: tightest, principal: await confirmKey(principal!, read.standing), carried: read.carried };
    }
    if (needsConfirmation(principal)) principal = await confirmKey(principal!, (await readKeyStanding(rc.db, uncounted)).standing);
  }
  return { limit: tightest, principal };
}
