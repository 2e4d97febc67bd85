import type { ServiceContext } from "@/lib/auth/context";
import { env } from "@/lib/core/env";
import { DomainError } from "@/lib/core/errors";
import { getPaymentFresh } from "./get-payment";

export const receiptPagePath = (paymentId: string) => `/dashboard/billing/receipts/${paymentId}`;

/**
 * GET /billing/payments/{id}/receipt: the provider's receipt page when it has one, otherwise our
 * own printable receipt (YooKassa mails 54-FZ receipts and offers no URL). Only a payment that
 * succeeded has a receipt.
 */
export async function receiptUrl(ctx: ServiceContext, id: string): Promise<string> {
  const payment = await getPaymentFresh(ctx, id);
  if (payment.status !== "succeeded") throw new DomainError("not_found", "This payment has no receipt: it has not succeeded");
  return payment.receiptUrl ?? new URL(receiptPagePath(payment.id), env().APP_URL).toString();
}
