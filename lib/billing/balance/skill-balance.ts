import type { ServiceContext } from "@/lib/auth/context";
import { creditsToRub } from "@/lib/pricing/credits";
import { tierForSpent } from "@/lib/rate-limit/tiers";
import { readBalance } from "./read-balance";

/**
 * GET /api/v1/balance: rubles for agents, with the tier that total spend has reached and the
 * requests-per-minute limit that tier gives (lib/rate-limit/tiers.ts decides both).
 */
export async function skillBalance({ db, principal: { userId } }: ServiceContext) {
  const { credits, spentCredits } = await readBalance(db, userId);
  const { tier, rpm } = tierForSpent(spentCredits);
  return { balance_rub: creditsToRub(credits), tier, rate_limit: rpm, total_spent_rub: creditsToRub(spentCredits) };
}
