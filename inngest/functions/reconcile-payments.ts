import { cron } from "inngest";
import { getDb } from "@/db/client";
import { reconcileStalePayments } from "@/lib/billing/payments/reconcile-stale";
import { inngest } from "../../lib/jobs/client";
import { paymentsReconcileRequested } from "../../lib/jobs/events";

const STALE_MS = 5 * 60_000;

/** Every 10 minutes: payments stuck pending are re-read from the provider (DESIGN.md "Payment notifications"). */
export const reconcilePaymentsFn = inngest.createFunction(
  {
    id: "reconcile-payments",
    name: "Reconcile pending payments",
    retries: 3,
    concurrency: 1,
    triggers: [cron("TZ=UTC */10 * * * *"), paymentsReconcileRequested],
  },
  async ({ event, step }) => {
    const olderThanMs = event.name === paymentsReconcileRequested.name ? (event.data?.olderThanMs ?? STALE_MS) : STALE_MS;
    const now = event.ts ?? Date.now();
    return step.run("reconcile", async () => reconcileStalePayments(await getDb(), { now, olderThanMs }));
  },
);
