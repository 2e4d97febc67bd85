import type { ServiceContext } from "@/lib/auth/context";
import { desc, eq } from "drizzle-orm";
import { paymentMethods } from "@/db/schema";
import { toPaymentMethodView } from "./method-view";

/** GET /me/payment-methods: the default first, then newest first. */
export async function listPaymentMethods({ db, principal: { userId } }: ServiceContext) {
  const rows = await db
    .select()
    .from(paymentMethods)
    .where(eq(paymentMethods.userId, userId))
    .orderBy(desc(paymentMethods.isDefault), desc(paymentMethods.createdAt), desc(paymentMethods.id));
  return { items: rows.map(toPaymentMethodView) };
}
