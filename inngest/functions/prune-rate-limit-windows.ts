import { cron } from "inngest";
import { getDb } from "@/db/client";
import { pruneRateLimitWindows } from "@/lib/rate-limit/sliding-window";
import { inngest } from "../../lib/jobs/client";

/** A day: longer than any rate-limit window in use, so only subjects that went quiet lose their row. */
const IDLE_MS = 24 * 3_600_000;

/**
 * Hourly: deletes rate-limit windows nobody has hit for a day (IPs seen once, deleted keys), so the
 * table stays the size of the active callers.
 */
export const pruneRateLimitWindowsFn = inngest.createFunction(
  { id: "prune-rate-limit-windows", name: "Prune rate-limit windows", retries: 3, concurrency: 1, triggers: [cron("TZ=UTC 41 * * * *")] },
  async ({ event, step }) => {
    // The cron event's ts is its scheduled time, so the cutoff does not depend on when the step runs.
    const asOf = event.ts ?? Date.now();
    const deleted = await step.run("prune", async () => pruneRateLimitWindows(await getDb(), IDLE_MS, asOf));
    return { deleted };
  },
);
