import type { Db } from "@/db/client";
import type { Principal } from "@/lib/auth/principal";
import { end, providerOf, refOf } from "./lifecycle";
import { untilEnded } from "./follow";
import { getGenerationOrThrow } from "./get-generation";
import { cachedModelRow } from "@/lib/catalog/get";

/** How long a cancel that finds the job finished at its provider waits to say how it ended. */
const SETTLING_MS = 10_000;

/**
 * PUT …/cancel. A job the gateway has not seen running is cancelled and refunded in full: `{ok:
 * true, status: "cancelled"}`; a running or finished one is left alone: `{ok: false, status}`.
 * The answer says what happened to the job:
 * - the provider is asked first: "removed from the queue", "never heard of it" and "the runner was
 *   told to stop" let the cancel through (the provider has acted on the last one too: it ends the
 *   job as cancelled, so the gateway ends it so now, and whatever the provider still sends is
 *   discarded, rather than answering "running" and then ending it cancelled);
 * - "already finished" there (it completed, or a cancel sent at the same moment stopped it) waits
 *   a little for the job's ending and answers it, or `in_progress` while it is still being collected;
 * - a provider that cannot be reached has cancelled nothing: the job goes on, still queued.
 */
export async function cancelGeneration(ctx: { db: Db; principal: Principal }, id: string, pathModelId?: string) {
  const row = await getGenerationOrThrow(ctx, id, pathModelId);
  if (row.status !== "queued") return { ok: false, status: row.status };
  if (row.providerRequestId) {
    const model = await cachedModelRow(ctx.db, row.modelId);
    if (model) {
      const answer = await providerOf(row)
        .cancel(refOf(row, model))
        .catch(() => null);
      if (!answer) return { ok: false, status: row.status };
      if (answer.status === "already_ended") {
        const ended = await untilEnded(ctx.db, row.id, { deadlineMs: Date.now() + SETTLING_MS });
        return { ok: false, status: ended?.status === "queued" || !ended ? "in_progress" : ended.status };
      }
    }
  }
  const ended = await end(ctx.db, row, { kind: "cancelled" });
  return ended.applied ? { ok: true, status: "cancelled" } : { ok: false, status: ended.row.status };
}
