import { and, eq, max } from "drizzle-orm";
import type { Executor } from "@/db/client";
import { autoTopupSettings } from "@/db/schema";
import { env } from "@/lib/core/env";
import { CREDITS_PER_RUB } from "@/lib/pricing/credits";

const TTL_MS = 30_000;
let cached: { credits: number; at: number } | undefined;

/**
 * The highest low-balance threshold any user has, in credits (LOW_BALANCE_EMAIL_THRESHOLD_RUB or
 * the largest enabled auto top-up threshold). A debit leaving a balance at or above it needs no
 * look at the database at all. Kept for 30 s per process; a settings change here forgets it, one
 * on another instance is picked up within the TTL (and by the sweep).
 */
export function knownMaxThresholdCredits(now = Date.now()): number | null {
  return cached && now - cached.at < TTL_MS ? cached.credits : null;
}

export async function maxThresholdCredits(db: Executor, now = Date.now()): Promise<number> {
  const known = knownMaxThresholdCredits(now);
  if (known !== null) return known;
  const [row] = await db
    .select({ rub: max(autoTopupSettings.thresholdRub) })
    .from(autoTopupSettings)
    .where(and(eq(autoTopupSettings.enabled, true)));
  const credits = Math.max(env().LOW_BALANCE_EMAIL_THRESHOLD_RUB, row?.rub ?? 0) * CREDITS_PER_RUB;
  cached = { credits, at: now };
  return credits;
}

export function forgetThresholdCache(): void {
  cached = undefined;
}
