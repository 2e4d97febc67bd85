import { randomUUID } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import type { Executor } from "@/db/client";
import { paymentMethods } from "@/db/schema";
import type { ProviderPayment } from "./provider";

/**
 * A card the provider saved during a payment becomes a payment method of the payer; the user's
 * first method is the default. Saving the same provider method again is a no-op (unique index).
 */
export async function savePaymentMethod(
  db: Executor,
  userId: string,
  provider: string,
  method: NonNullable<ProviderPayment["paymentMethod"]>,
) {
  if (!method.saved) return;
  const values = {
    userId,
    provider,
    providerMethodId: method.id,
    cardLast4: method.last4,
    cardBrand: method.brand,
    title: method.title,
  };
  const noDefaultYet = sql<boolean>`not exists (select 1 from ${paymentMethods} where ${paymentMethods.userId} = ${userId} and ${paymentMethods.isDefault})`;
  // Any unique violation (same card, or a default set concurrently) turns the insert into a no-op…
  const inserted = await db
    .insert(paymentMethods)
    .values({ id: `pm_${randomUUID()}`, ...values, isDefault: noDefaultYet })
    .onConflictDoNothing()
    .returning({ id: paymentMethods.id });
  if (inserted.length > 0) return;
  // …so if the card is still missing, it lost a race for the default: save it as a plain method.
  const [existing] = await db
    .select({ id: paymentMethods.id })
    .from(paymentMethods)
    .where(and(eq(paymentMethods.provider, provider), eq(paymentMethods.providerMethodId, method.id)));
  if (!existing)
    await db
      .insert(paymentMethods)
      .values({ id: `pm_${randomUUID()}`, ...values, isDefault: false })
      .onConflictDoNothing();
}
