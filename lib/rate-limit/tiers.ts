import { eq } from "drizzle-orm";
import type { Executor } from "@/db/client";
import { balances } from "@/db/schema";
import { env } from "@/lib/core/env";
import { makesNewGeneration, MINUTE_MS, type RateLimitRule } from "./rules";
import { CREDITS_PER_RUB } from "@/lib/pricing/credits";

export type Tier = { tier: number; rpm: number };

function parseList(name: string, raw: string): number[] {
  const values = raw.split(",").map((s) => Number(s.trim()));
  if (values.length === 0 || values.some((v) => !Number.isSafeInteger(v) || v < 0)) {
    throw new Error(`${name} must be a comma-separated list of whole numbers`);
  }
  return values;
}

/**
 * The skill-surface tier (1–4) from the credits a user has ever spent (DESIGN.md "Limits":
 * thresholds in rubles TIER_THRESHOLDS_RUB, requests per minute TIER_RPM). Compared in credits,
 * so a threshold is reached exactly, with no float rounding.
 */
export function tierForSpent(spentCredits: number): Tier {
  const thresholds = parseList("TIER_THRESHOLDS_RUB", env().TIER_THRESHOLDS_RUB);
  const rpm = parseList("TIER_RPM", env().TIER_RPM);
  let index = 0;
  thresholds.forEach((rub, i) => {
    if (spentCredits >= rub * CREDITS_PER_RUB) index = i;
  });
  return { tier: index + 1, rpm: rpm[Math.min(index, rpm.length - 1)] ?? 0 };
}

export async function tierOfUser(db: Executor, userId: string): Promise<Tier> {
  const [row] = await db.select({ spent: balances.spentCredits }).from(balances).where(eq(balances.userId, userId));
  return tierForSpent(row?.spent ?? 0);
}

/** The skill surface's per-user requests-per-minute limit by tier (for POST /api/v1/generate). */
export const skillTierLimit: RateLimitRule = {
  name: "skill-tier",
  by: "user",
  max: async ({ db, principal }) => (principal ? (await tierOfUser(db, principal.userId)).rpm : 0),
  windowMs: MINUTE_MS,
  describe: (max) => `Tier limit reached: ${max} requests per minute; spending more raises the tier`,
  applies: makesNewGeneration,
};
