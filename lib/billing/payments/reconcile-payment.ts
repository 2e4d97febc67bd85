import type { Db } from "@/db/client";
import { log } from "@/lib/core/logger";
import { applyProviderPayment, type ApplyResult } from "./apply-provider-payment";
import { isPaymentProviderError } from "./errors";
import type { PaymentRow } from "./payment-view";
import { isFinalStatus } from "./provider";
import { paymentProvider } from "./registry";

/**
 * Re-reads a payment that is not final from its provider and applies the answer (used when the
 * user comes back, by the sweep, and by notifications). A provider that is down leaves the payment
 * as it was; the caller decides whether that is an error.
 */
export async function reconcilePayment(db: Db, row: PaymentRow): Promise<ApplyResult> {
  if (isFinalStatus(row.status)) return { applied: false, reason: `already_${row.status}`, payment: row };
  if (!row.paymentProviderId) return { applied: false, reason: "not_at_provider", payment: row };
  const remote = await paymentProvider(row.provider).getPayment(row.paymentProviderId);
  if (!remote) return { applied: false, reason: "unknown_at_provider", payment: row };
  return applyProviderPayment(db, row, remote);
}

/** Same, for read paths: a provider failure is logged and the stored payment returned. */
export async function reconcileQuietly(db: Db, row: PaymentRow): Promise<PaymentRow> {
  try {
    return (await reconcilePayment(db, row)).payment;
  } catch (err) {
    if (!isPaymentProviderError(err)) throw err;
    log.warn("could not reconcile a pending payment", { paymentId: row.id, error: err.message });
    return row;
  }
}
