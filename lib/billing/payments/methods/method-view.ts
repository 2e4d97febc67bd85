import type { paymentMethods } from "@/db/schema";

/** The spec's Payment method resource. */
export const toPaymentMethodView = (row: typeof paymentMethods.$inferSelect) => ({
  id: row.id,
  cardLast4: row.cardLast4,
  cardBrand: row.cardBrand,
  isDefault: row.isDefault,
  createdAt: row.createdAt.toISOString(),
});

export type PaymentMethodView = ReturnType<typeof toPaymentMethodView>;
