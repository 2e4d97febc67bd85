import { log } from "@/lib/core/logger";
import { countGeneration } from "@/lib/observability/metrics";
import { quoteForOutput } from "@/lib/pricing/pricing";
import { cachedModelRow } from "@/lib/catalog/get";
import type { Db } from "@/db/client";
import { callbackPayload, requestCallbackDelivery } from "./callbacks";
import { progressEvent, statusEvent } from "./event-log";
import { bumpPopularity } from "./popularity";
import { generationById, writeEnding, type Ended, type EndingPath, NOTHING_UNRECORDED, type Unrecorded } from "./store";
import type { GenerationOutcome, GenerationRow } from "./types";

export type Finalized = { applied: boolean; row: GenerationRow };

/**
 * The ONE way a job ends, whoever ends it (the sync request, the queue function, a provider
 * webhook, a cancel, the failure handler): the store's `writeEnding` writes the final status,
 * the money (settle from the actual output, or a full refund), the activity record, the final
 * events and the callback delivery row atomically, and a second ending (a duplicate webhook, a
 * job retry, a cancel racing a completion) changes nothing. `path` is for tests: by default the
 * store takes the one statement unless a price difference or a callback needs its transaction.
 */
export async function finalizeGeneration(
  db: Db,
  job: GenerationRow,
  outcome: GenerationOutcome,
  unrecorded: Unrecorded = NOTHING_UNRECORDED,
  now = new Date(),
  path?: EndingPath,
): Promise<Finalized> {
  const model = outcome.kind === "completed" && !job.sandbox ? await cachedModelRow(db, job.modelId) : null;
  const actualCredits =
    outcome.kind === "completed" && model ? quoteForOutput(model, outcome.providerOutput, job.input).credits : job.costReservedCredits;
  // The run's progress it left to its ending (store/journal.ts) comes first: the provider's id, `submitted`, `storing`.
  const events = [
    ...unrecorded.events,
    statusEvent(outcome.kind, outcome.kind === "failed" ? { error: outcome.errorCode } : {}),
    progressEvent(outcome.kind, outcome.kind === "failed" ? { message: outcome.message } : {}),
  ];
  const ending = {
    job,
    outcome,
    events,
    submission: unrecorded.submission,
    written: unrecorded.written,
    now,
    actualCredits,
    callbackPayload,
  };
  return afterFinal(db, job, await writeEnding(db, ending, path));
}

/** After the ending committed (or lost to another ending; its trigger has told the waiters): count, queue the callback. */
async function afterFinal(db: Db, job: GenerationRow, result: Ended): Promise<Finalized> {
  if (!result) return { applied: false, row: (await generationById(db, job.id)) ?? job };
  countGeneration(result.row.modelId, result.row.status);
  if (result.row.status === "completed") {
    const { createdAt, completedAt } = result.row;
    bumpPopularity(result.row.modelId, completedAt ? completedAt.getTime() - createdAt.getTime() : undefined);
  }
  if (result.deliveryId) {
    await requestCallbackDelivery(result.deliveryId).catch((error) =>
      // The delivery row exists: the re-drive sweep sends it if this hand-off was lost.
      log.warn("completion callback could not be queued", { generationId: job.id, error }),
    );
  }
  return { applied: true, row: result.row };
}
