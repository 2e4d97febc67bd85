import type { ServiceContext } from "@/lib/auth/context";
import { readBalance } from "@/lib/billing/balance/read-balance";
import { windowUsage } from "./window-usage";
import type { UsageWindow } from "./windows";

/** GET /me/usage: the balance beside spend per window. */
export async function meUsage({ db, principal: { userId } }: ServiceContext, windows: UsageWindow[]) {
  const [{ credits }, usage] = await Promise.all([readBalance(db, userId), windowUsage(db, userId, windows)]);
  return { balance: credits, windows: usage };
}
