import type { ServiceContext } from "@/lib/auth/context";
import { getBalanceCredits } from "@/lib/billing/ledger/ledger";

/** GET /me/balance: the caller's balance in credits (1 credit = 0.0001 ₽). */
export async function gatewayBalance({ db, principal: { userId } }: ServiceContext) {
  return { userId, balance: await getBalanceCredits(db, userId) };
}
