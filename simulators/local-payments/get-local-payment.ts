import { and, eq, sql, type SQL } from "drizzle-orm";
import type { Executor } from "@/db/client";
import { localProviderPayments, payments } from "@/db/schema";

/**
 * That a local provider payment belongs to a user: the payment row it was made for is theirs. Put
 * in the same WHERE as the read or the update, so another user's payment is exactly as missing as
 * an unknown id (the subquery uses the (provider, payment_provider_id) unique index).
 */
export const localPaymentOwnedBy = (userId: string): SQL =>
  sql`exists (select 1 from ${payments} where ${payments.provider} = ${"local"} and ${payments.paymentProviderId} = ${localProviderPayments.id} and ${payments.userId} = ${userId})`;

/** What the local confirmation page shows to the payment's owner; null for anyone else or an unknown id. */
export async function getLocalPayment(db: Executor, id: string, userId: string) {
  const [row] = await db
    .select()
    .from(localProviderPayments)
    .where(and(eq(localProviderPayments.id, id), localPaymentOwnedBy(userId)));
  return row ?? null;
}
