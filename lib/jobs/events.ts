import { eventType } from "inngest";
import { z } from "zod";

/**
 * Every event the app sends or listens to, with its payload schema: `inngest.send(evt.create(…))`
 * validates before sending, and triggers typed with these get typed `event.data`.
 */

/** Ask for the job history to be pruned now (the hourly cron does it anyway). */
export const jobHistoryPruneRequested = eventType("jobs/history.prune.requested", {
  schema: z.object({
    /** Prune as of this instant (ms since epoch); default: when the event was sent. */
    asOf: z.number().int().positive().optional(),
  }),
});

/** A debit left the balance below the user's auto top-up threshold (one event per crossing). */
export const autoTopupRequested = eventType("billing/auto-topup.requested", {
  schema: z.object({ userId: z.string().min(1), crossingAt: z.number().int() }),
});

/** A debit left the balance below the user's low-balance threshold (one e-mail per crossing). */
export const lowBalanceCrossed = eventType("billing/low-balance.crossed", {
  schema: z.object({
    userId: z.string().min(1),
    crossingAt: z.number().int(),
    balanceCredits: z.number().int(),
    thresholdRub: z.number().int(),
  }),
});

/** Re-read payments stuck pending now (the sweep does it every 10 minutes anyway). */
export const paymentsReconcileRequested = eventType("billing/payments.reconcile.requested", {
  schema: z.object({ olderThanMs: z.number().int().nonnegative().optional() }),
});

/** Run a generation job through the provider (queue mode, a timed-out sync run, a re-drive). Event id `generation:<id>`. */
export const generationRequested = eventType("generation/requested", {
  schema: z.object({ generationId: z.string().min(1) }),
});

/** A provider finished a job (its webhook arrived): wakes the run waiting for it. */
export const generationProviderCompleted = eventType("generation/provider.completed", {
  schema: z.object({ generationId: z.string().min(1) }),
});

/** Deliver a completion callback (a webhook_deliveries row). Event id `callback:<deliveryId>`. */
export const generationCallbackRequested = eventType("generation/callback.requested", {
  schema: z.object({ deliveryId: z.string().min(1) }),
});
