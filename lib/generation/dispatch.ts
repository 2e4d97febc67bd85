import { inngest } from "@/lib/jobs/client";
import { generationRequested } from "@/lib/jobs/events";

/**
 * Hands a job to the `run-generation` function. The event id `generation:<id>` makes every
 * hand-off of one job (queue submit, a sync timeout, the re-drive sweep) start one run only.
 */
export async function dispatchGeneration(generationId: string): Promise<void> {
  await inngest.send({ id: `generation:${generationId}`, name: generationRequested.name, data: { generationId } });
}
