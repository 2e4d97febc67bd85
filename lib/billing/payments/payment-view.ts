import type { payments } from "@/db/schema";

export type PaymentRow = typeof payments.$inferSelect;

/** The spec's Payment resource (plus kind and why it was canceled). */
export function toPaymentView(row: PaymentRow) {
  return {
    id: row.id,
    paymentProviderId: row.paymentProviderId,
    status: row.status,
    kind: row.kind,
    creditsToGrant: row.creditsToGrant,
    amountKopecks: row.amountKopecks,
    currency: row.currency,
    description: row.description,
    cancellationReason: row.cancellationReason,
    createdAt: row.createdAt.toISOString(),
  };
}

export type PaymentView = ReturnType<typeof toPaymentView>;
