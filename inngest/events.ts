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
