import type { Executor } from "@/db/client";
import { getBalanceCredits } from "@/lib/billing/ledger/ledger";

/** GET /me/balance: the caller's balance in credits (1 credit = 0.0001 ₽). */
export async function gatewayBalance(db: Executor, userId: string) {
  return { userId, balance: await getBalanceCredits(db, userId) };
}
