import { eq } from "drizzle-orm";
import type { Executor } from "@/db/client";
import { balances } from "@/db/schema";

/** A user's balance and credits ever spent on generations; a user without a balance row has 0 of both. */
export async function readBalance(db: Executor, userId: string): Promise<{ credits: number; spentCredits: number }> {
  const [row] = await db
    .select({ credits: balances.credits, spentCredits: balances.spentCredits })
    .from(balances)
    .where(eq(balances.userId, userId));
  return row ?? { credits: 0, spentCredits: 0 };
}
