import { and, eq } from "drizzle-orm";
import { getDb } from "@/db/client";
import { creditTransactions, payments } from "@/db/schema";
import { getBalanceCredits } from "@/lib/billing/ledger/ledger";
import { env, resetEnv } from "@/lib/core/env";
import { decideLocalPayment, type LocalOutcome } from "@/simulators/local-payments/confirm";

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
  return (await getDb())
    .select()
    .from(creditTransactions)
    .where(eq(creditTransactions.userId, userId))
    .orderBy(creditTransactions.createdAt);
}

export async function paymentRow(id: string) {
  const [row] = await (await getDb()).select().from(payments).where(eq(payments.id, id));
  return row!;
}

/** An address on this site (APP_URL as configured now), e.g. a top-up's returnUrl. */
export const siteUrl = (path: string) => new URL(path, env().APP_URL).toString();

/** The payment's owner pays (or declines) it on the local provider's confirmation page. */
export async function payLocally(paymentProviderId: string, outcome: LocalOutcome = "pay") {
  const db = await getDb();
  const [row] = await db
    .select({ userId: payments.userId })
    .from(payments)
    .where(and(eq(payments.provider, "local"), eq(payments.paymentProviderId, paymentProviderId)));
  return decideLocalPayment(db, row!.userId, paymentProviderId, outcome);
}
