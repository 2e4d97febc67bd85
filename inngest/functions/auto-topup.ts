import { NonRetriableError } from "inngest";
import { getDb } from "@/db/client";
import { chargeAutoTopup } from "@/lib/billing/payments/auto-topup/charge";
import { isPaymentProviderError } from "@/lib/billing/payments/errors";
import { inngest } from "../../lib/jobs/client";
import { autoTopupRequested } from "../../lib/jobs/events";

/**
 * Charges the default saved card when a debit crossed the auto top-up threshold. One run per
 * crossing (the event id), one at a time per user; the at-most-one-in-flight rule and the single
 * charge per payment are the database's (see chargeAutoTopup), not this flow control's.
 */
export const autoTopupFn = inngest.createFunction(
  {
    id: "auto-topup",
    name: "Auto top-up",
    retries: 4,
    concurrency: { key: "event.data.userId", limit: 1 },
    triggers: [autoTopupRequested],
  },
  async ({ event, step }) =>
    step.run("charge", async () => {
      try {
        return await chargeAutoTopup(await getDb(), event.data.userId);
      } catch (err) {
        if (isPaymentProviderError(err) && !err.retryable) throw new NonRetriableError(err.message);
        throw err;
      }
    }),
);
