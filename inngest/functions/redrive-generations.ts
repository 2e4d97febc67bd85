import { cron } from "inngest";
import { getDb } from "@/db/client";
import { redriveGenerations } from "@/lib/generation";
import { inngest } from "../../lib/jobs/client";

/** Every minute: hands unfinished jobs and owed callbacks whose driver died back to their functions. */
export const redriveGenerationsFn = inngest.createFunction(
  { id: "redrive-generations", name: "Re-drive stranded generations", retries: 2, concurrency: 1, triggers: [cron("TZ=UTC * * * * *")] },
  async ({ step }) => step.run("redrive", async () => redriveGenerations(await getDb())),
);
