import { eq } from "drizzle-orm";
import { getDb } from "@/db/client";
import { creditTransactions, payments } from "@/db/schema";
import { getBalanceCredits } from "@/lib/billing/ledger";
import { resetEnv } from "@/lib/env";

/** Sets (or, with undefined, unsets) variables and re-reads the configuration. */
export function setEnv(vars: Record<string, string | undefined>): void {
  for (const [k, v] of Object.entries(vars)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
  resetEnv();
}

export async function balanceOf(userId: string): Promise<number> {
  return getBalanceCredits(await getDb(), userId);
}

export async function ledgerOf(userId: string) {
  return (await getDb()).select().from(creditTransactions).where(eq(creditTransactions.userId, userId)).orderBy(creditTransactions.createdAt);
}

export async function paymentRow(id: string) {
  const [row] = await (await getDb()).select().from(payments).where(eq(payments.id, id));
  return row!;
}
