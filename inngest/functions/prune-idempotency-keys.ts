import { cron } from "inngest";
import { getDb } from "@/db/client";
import { pruneIdempotencyKeys } from "@/lib/generation";
import { inngest } from "../../lib/jobs/client";

/**
 * Hourly: deletes Idempotency-Key rows older than their 24 h window. Repeats already ignore them;
 * this keeps the table the size of one day's keyed requests.
 */
export const pruneIdempotencyKeysFn = inngest.createFunction(
  { id: "prune-idempotency-keys", name: "Prune idempotency keys", retries: 3, concurrency: 1, triggers: [cron("TZ=UTC 29 * * * *")] },
  async ({ event, step }) => {
    // The cron event's ts is its scheduled time, so the cutoff does not depend on when the step runs.
    const asOf = event.ts ?? Date.now();
    const deleted = await step.run("prune", async () => pruneIdempotencyKeys(await getDb(), asOf));
    return { deleted };
  },
);
