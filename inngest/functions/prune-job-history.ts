import { cron } from "inngest";
import { getDb } from "@/db/client";
import { env } from "@/lib/core/env";
import { pruneJobHistory } from "@/lib/jobs/prune";
import { inngest } from "../../lib/jobs/client";
import { jobHistoryPruneRequested } from "../../lib/jobs/events";

/**
 * Hourly: drops the embedded executor's finished runs and events past the retention window
 * (JOBS_HISTORY_RETENTION_HOURS, never under the 24 h dedupe window), so its tables stay the size
 * of one day's work. Under an Inngest server the tables are empty and this is a no-op.
 */
export const pruneJobHistoryFn = inngest.createFunction(
  {
    id: "prune-job-history",
    name: "Prune job history",
    retries: 3,
    concurrency: 1,
    triggers: [cron("TZ=UTC 17 * * * *"), jobHistoryPruneRequested],
  },
  async ({ event, step }) => {
    // The cron event's ts is its scheduled time: the cutoff does not depend on when the step runs.
    const asOf = (event.name === jobHistoryPruneRequested.name && event.data?.asOf) || event.ts || Date.now();
    return step.run("prune", async () =>
      pruneJobHistory(await getDb(), { asOf, retentionMs: env().JOBS_HISTORY_RETENTION_HOURS * 3_600_000 }),
    );
  },
);
