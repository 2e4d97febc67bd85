import type { ServiceContext } from "@/lib/auth/context";
import { and, desc, eq } from "drizzle-orm";
import { paymentMethods } from "@/db/schema";
import { notFound } from "@/lib/core/errors";

/**
 * DELETE /me/payment-methods/{id}: forgets a saved card (auto top-up stops using it). When it was
 * the default, the newest remaining card becomes the default, so auto top-up keeps working.
 */
export async function deletePaymentMethod({ db, principal: { userId } }: ServiceContext, id: string): Promise<void> {
  await db.transaction(async (tx) => {
    const [deleted] = await tx
      .delete(paymentMethods)
      .where(and(eq(paymentMethods.id, id), eq(paymentMethods.userId, userId)))
      .returning();
    if (!deleted) throw notFound("Payment method");
    if (!deleted.isDefault) return;
    const [next] = await tx
      .select({ id: paymentMethods.id })
      .from(paymentMethods)
      .where(eq(paymentMethods.userId, userId))
      .orderBy(desc(paymentMethods.createdAt), desc(paymentMethods.id))
      .limit(1);
    if (next) await tx.update(paymentMethods).set({ isDefault: true }).where(eq(paymentMethods.id, next.id));
  });
}
