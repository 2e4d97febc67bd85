import type { Db } from "@/db/client";
import type { ModelRow } from "@/lib/catalog/columns";
import { log } from "@/lib/core/logger";
import { aheadOfRun } from "@/lib/jobs/ahead";
import { inngest } from "@/lib/jobs/client";
import { generationRequested } from "@/lib/jobs/events";
import { submitAhead } from "./job-steps";
import { providerOf, providerWebhookUrl } from "./lifecycle";
import type { GenerationRow } from "./types";

/**
 * When the run of a queued job whose provider calls back first looks at it: the provider's
 * webhook ends most jobs before (and cancels the run, inngest/functions/run-generation.ts); a job
 * still running is shown running, with its logs, from then on.
 */
export const FIRST_LOOK_MS = 15_000;

/**
 * Hands a job to the `run-generation` function. The event id `generation:<id>` makes every
 * hand-off of one job (queue submit, a sync timeout, the re-drive sweep) start one run only.
 * `startInMs`: the run starts that much later (the event's `ts` ahead: Inngest's delayed start).
 */
export async function dispatchGeneration(generationId: string, { startInMs = 0 } = {}): Promise<void> {
  await inngest.send({
    id: `generation:${generationId}`,
    name: generationRequested.name,
    data: { generationId },
    ...(startInMs > 0 ? { ts: Date.now() + startInMs } : {}),
  });
}

/**
 * The queue request's hand-off, its job and reserve committed. The `run-generation` function
 * carries the job either way. When the provider calls back, its run is created to start
 * FIRST_LOOK_MS later, and the submit is attempted here in-process, not awaited (the answer never
 * waits on the provider): most jobs are then ended by the webhook before the run starts, and it
 * never runs (its cancelOn). If that submit is lost (a crash) or fails transiently, the run's
 * first step submits (lifecycle's `submit` is idempotent against the row). When the provider
 * cannot call back, the run starts now, submits and polls.
 */
export async function dispatchQueued(db: Db, row: GenerationRow, model: ModelRow): Promise<void> {
  const callback = providerOf(row).callsBackTo(providerWebhookUrl());
  // If this hand-off is lost (a crash right here), the re-drive sweep sends it again.
  await dispatchGeneration(row.id, { startInMs: callback ? FIRST_LOOK_MS : 0 }).catch((error) =>
    log.error("queued generation not dispatched yet", { generationId: row.id, error }),
  );
  if (callback) aheadOfRun(submitAhead(db, row, model));
}
