import { and, asc, inArray, lt } from "drizzle-orm";
import type { Db } from "@/db/client";
import { payments } from "@/db/schema";
import { log } from "@/lib/core/logger";
import { isPaymentProviderError } from "./errors";
import { clearRecoveredLowBalances } from "./low-balance";
import { reconcilePayment } from "./reconcile-payment";

const BATCH = 100;

/**
 * The sweep: payments still pending after `olderThanMs` are re-read from their provider (a lost or
 * never-sent notification), and low-balance marks of balances that recovered are cleared so the
 * next drop notifies again. Uses payments_status_idx.
 */
export async function reconcileStalePayments(db: Db, options: { now: number; olderThanMs: number }) {
  const rows = await db
    .select()
    .from(payments)
    .where(
      and(
        inArray(payments.status, ["pending", "waiting_for_capture"]),
        lt(payments.createdAt, new Date(options.now - options.olderThanMs)),
      ),
    )
    .orderBy(asc(payments.createdAt))
    .limit(BATCH);
  const outcome = { checked: rows.length, applied: 0, failed: 0 };
  for (const row of rows) {
    try {
      if ((await reconcilePayment(db, row)).applied) outcome.applied++;
    } catch (err) {
      if (!isPaymentProviderError(err)) throw err;
      outcome.failed++;
      log.warn("reconcile: provider unavailable", { paymentId: row.id, error: err.message });
    }
  }
  await clearRecoveredLowBalances(db);
  return outcome;
}
