import { enforceRateLimits } from "@/lib/rate-limit/enforce";
import { skillTierLimit } from "@/lib/rate-limit/tiers";
import type { ToolCall } from "./tool";

/**
 * The skill tier's requests-per-minute limit, applied to a `generate` call as POST
 * /api/v1/generate applies it: the same rule, so the same window per user (`skill-tier:<userId>`)
 * whichever surface the calls come from, and the same 429 `rate_limited`, which the tool turns
 * into a RATE_LIMITED tool error.
 *
 * The HTTP request carrying the call has already been counted against the key (and its per-key
 * limit) by `withSkill`; the principal is therefore passed without its key, so only the tier rule
 * is counted here. The rule counts by user, which that leaves intact.
 */
export async function enforceTierLimit({ ctx, req }: ToolCall): Promise<void> {
  const principal = { ...ctx.principal, source: "session" as const, apiKeyId: null, keyLimit: null };
  await enforceRateLimits({ db: ctx.db, req, principal }, [skillTierLimit]);
}
