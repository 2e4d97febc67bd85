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
