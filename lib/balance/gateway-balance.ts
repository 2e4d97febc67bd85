import type { Executor } from "@/db/client";
import { readBalance } from "./read-balance";

/** GET /me/balance: the caller's balance in credits (1 credit = 0.0001 ₽). */
export async function gatewayBalance(db: Executor, userId: string) {
  return { userId, balance: (await readBalance(db, userId)).credits };
}
