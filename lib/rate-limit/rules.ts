import { and, eq, gt } from "drizzle-orm";
import type { Executor } from "@/db/client";
import { IDEMPOTENCY_TTL_MS, idempotencyKeys } from "@/db/schema";
import type { Principal } from "@/lib/auth/principal";
import { env } from "@/lib/core/env";

export type RuleContext = { db: Executor; req: Request; principal: Principal | null };

/**
 * A per-route limit, given to `withGateway` / `withSkill` as `rateLimit: [rule, …]`. The per-key
 * limit (every key-authenticated request) is applied by the wrapper itself and is not listed.
 */
export type RateLimitRule = {
  /** Counter namespace: routes using rules with the same name share one budget per subject. */
  name: string;
  /** Whose requests count together. A rule whose subject is absent (e.g. `key` for a session) is skipped. */
  by: "user" | "key" | "ip";
  /** Requests per window; a function when it depends on the caller (e.g. the skill tier's rpm). */
  max: number | ((rc: RuleContext) => number | Promise<number>);
  windowMs: number;
  /** What the 429 says, e.g. "Generation limit: 100 requests per hour per user". */
  describe: (max: number) => string;
  /** Whether the request counts at all (absent: every request does). */
  applies?: (rc: RuleContext) => Promise<boolean>;
};

export const MINUTE_MS = 60_000;
export const HOUR_MS = 3_600_000;

/**
 * Generation limits count new generations: a repeat whose `Idempotency-Key` already names one of
 * the user's jobs (within its 24 h) makes none — it replays that job's outcome, or is 422 for
 * another body — so it is free. One indexed read, only for requests that carry the header.
 */
export async function makesNewGeneration({ db, req, principal }: RuleContext): Promise<boolean> {
  const key = req.headers.get("idempotency-key");
  if (!key || !principal || key.length > 255) return true;
  const [taken] = await db
    .select({ key: idempotencyKeys.key })
    .from(idempotencyKeys)
    .where(
      and(
        eq(idempotencyKeys.userId, principal.userId),
        eq(idempotencyKeys.key, key),
        gt(idempotencyKeys.createdAt, new Date(Date.now() - IDEMPOTENCY_TTL_MS)),
      ),
    );
  return !taken;
}

/** Spec "Limits": 100 per hour per user on POST /run/* and POST /queue/* (new generations). */
export const userGenerationLimit: RateLimitRule = {
  name: "user-gen",
  by: "user",
  max: () => env().RATE_LIMIT_USER_GENERATIONS_PER_HOUR,
  windowMs: HOUR_MS,
  describe: (max) => `Generation limit reached: ${max} requests per hour per user`,
  applies: makesNewGeneration,
};

/** Spec "Limits": 100 per minute per client IP on POST /webhooks/yookassa/*. */
export const webhookIpLimit: RateLimitRule = {
  name: "ip-webhook",
  by: "ip",
  max: () => env().RATE_LIMIT_WEBHOOK_IP_PER_MINUTE,
  windowMs: MINUTE_MS,
  describe: (max) => `Too many notifications: ${max} per minute per address`,
};
