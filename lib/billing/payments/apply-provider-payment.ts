import { and, eq, notInArray } from "drizzle-orm";
import type { Db } from "@/db/client";
import { payments } from "@/db/schema";
import { grantCredits } from "@/lib/billing/ledger/ledger";
import { log } from "@/lib/core/logger";
import { clearLowBalanceIfRecovered } from "./low-balance";
import type { PaymentRow } from "./payment-view";
import type { ProviderPayment } from "./provider";
import { savePaymentMethod } from "./save-payment-method";

export type ApplyResult = {
  /** This call moved the payment to a new status (and, for `succeeded`, granted the credits). */
  applied: boolean;
  /** Why nothing happened, when nothing did. */
  reason: string | null;
  payment: PaymentRow;
};

const FINAL = ["succeeded", "canceled"] as const;

/**
 * Applies what the provider says about one of our payments — never what a notification says.
 * The status change is a guarded update (only from a non-final status) in the same database
 * transaction as the ledger grant, whose idempotency key `payment:<id>` is unique: however many
 * notifications, reconciles and retries race, the credits are granted exactly once, and a late
 * `canceled` cannot undo a `succeeded` (final statuses never change).
 */
export async function applyProviderPayment(db: Db, row: PaymentRow, remote: ProviderPayment): Promise<ApplyResult> {
  if (remote.amountKopecks !== row.amountKopecks || remote.currency !== row.currency) {
    log.error("payment amount at the provider differs from ours; nothing applied", {
      paymentId: row.id,
      ours: row.amountKopecks,
      theirs: remote.amountKopecks,
    });
    return { applied: false, reason: "amount_mismatch", payment: row };
  }
  if (remote.metadata.paymentId && remote.metadata.paymentId !== row.id) {
    return { applied: false, reason: "payment_mismatch", payment: row };
  }
  if (remote.status === "pending" || remote.status === "waiting_for_capture") {
    if (remote.status === row.status) return { applied: false, reason: `still_${remote.status}`, payment: row };
  }
  const result = await db.transaction(async (tx) => {
    const [updated] = await tx
      .update(payments)
      .set({
        status: remote.status,
        cancellationReason: remote.status === "canceled" ? (remote.cancellationReason ?? "canceled") : null,
        grantedAt: remote.status === "succeeded" ? new Date() : null,
        receiptUrl: remote.receiptUrl,
        providerData: remote.raw,
      })
      .where(and(eq(payments.id, row.id), notInArray(payments.status, [...FINAL])))
      .returning();
    if (!updated) return null;
    if (remote.status === "succeeded") {
      await grantCredits(tx, {
        userId: updated.userId,
        credits: updated.creditsToGrant,
        type: "topup",
        idempotencyKey: `payment:${updated.id}`,
        paymentId: updated.id,
        description: updated.description ?? "Top-up",
      });
      if (remote.paymentMethod) await savePaymentMethod(tx, updated.userId, updated.provider, remote.paymentMethod);
      await clearLowBalanceIfRecovered(tx, updated.userId);
    }
    return updated;
  });
  if (!result) {
    const [current] = await db.select().from(payments).where(eq(payments.id, row.id));
    return { applied: false, reason: `already_${current?.status ?? row.status}`, payment: current ?? row };
  }
  return { applied: true, reason: null, payment: result };
}
