import type { ServiceContext } from "@/lib/auth/context";
import { and, eq, or } from "drizzle-orm";
import type { Db } from "@/db/client";
import { payments } from "@/db/schema";
import { notFound } from "@/lib/core/errors";
import type { PaymentRow } from "./payment-view";
import { reconcileQuietly } from "./reconcile-payment";

/**
 * One of the caller's payments by the provider's payment id (the spec's path parameter) or by our
 * own id. Another user's payment is exactly as missing as a missing one.
 */
export async function getPaymentOrThrow(db: Db, userId: string, id: string): Promise<PaymentRow> {
  const [row] = await db
    .select()
    .from(payments)
    .where(and(eq(payments.userId, userId), or(eq(payments.paymentProviderId, id), eq(payments.id, id))))
    .limit(1);
  if (!row) throw notFound("Payment");
  return row;
}

/** The printable receipt's payment: one of the caller's, succeeded (by our id), else null. */
export async function receiptPayment({ db, principal: { userId } }: ServiceContext, id: string): Promise<PaymentRow | null> {
  const [row] = await db
    .select()
    .from(payments)
    .where(and(eq(payments.id, id), eq(payments.userId, userId)));
  return row?.status === "succeeded" ? row : null;
}

/** GET /billing/payments/{id}: a pending payment is re-read from the provider first (the user came back). */
export async function getPaymentFresh({ db, principal: { userId } }: ServiceContext, id: string): Promise<PaymentRow> {
  const row = await getPaymentOrThrow(db, userId, id);
  return row.status === "pending" || row.status === "waiting_for_capture" ? reconcileQuietly(db, row) : row;
}
