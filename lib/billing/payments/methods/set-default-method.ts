import type { ServiceContext } from "@/lib/auth/context";
import { and, eq, ne } from "drizzle-orm";
import { paymentMethods } from "@/db/schema";
import { notFound } from "@/lib/core/errors";
import { toPaymentMethodView } from "./method-view";

/**
 * POST /me/payment-methods/{id}/default. The old default is cleared before the new one is set, in
 * one transaction, because the database allows one default per user (payment_methods_one_default_uq).
 */
export async function setDefaultPaymentMethod({ db, principal: { userId } }: ServiceContext, id: string) {
  return db.transaction(async (tx) => {
    const [target] = await tx
      .select({ id: paymentMethods.id })
      .from(paymentMethods)
      .where(and(eq(paymentMethods.id, id), eq(paymentMethods.userId, userId)))
      .for("update");
    if (!target) throw notFound("Payment method");
    await tx
      .update(paymentMethods)
      .set({ isDefault: false })
      .where(and(eq(paymentMethods.userId, userId), eq(paymentMethods.isDefault, true), ne(paymentMethods.id, id)));
    const [updated] = await tx.update(paymentMethods).set({ isDefault: true }).where(eq(paymentMethods.id, id)).returning();
    return { method: toPaymentMethodView(updated!) };
  });
}
