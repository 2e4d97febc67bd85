import type { Db } from "@/db/client";
import type { Principal } from "@/lib/auth/principal";
import { finalizeGeneration } from "./finalize";
import { getGenerationOrThrow } from "./get-generation";
import { cachedModelRow } from "@/lib/catalog/get";
import { providerOf, refOf } from "./provider-calls";

/**
 * PUT …/cancel. A job that has not started running (queued, at most waiting in the provider's
 * queue) is cancelled and refunded in full: `{ok: true, status: "cancelled"}`. A running or
 * finished one is left alone: `{ok: false, status}`. The provider is asked first; only its
 * "removed from the queue" (or "never heard of it") lets the cancel through.
 */
export async function cancelGeneration(ctx: { db: Db; principal: Principal }, id: string, pathModelId?: string) {
  const row = await getGenerationOrThrow(ctx, id, pathModelId);
  if (row.status !== "queued") return { ok: false, status: row.status };
  if (row.providerRequestId) {
    const model = await cachedModelRow(ctx.db, row.modelId);
    if (model) {
      const answer = await providerOf(row)
        .cancel(refOf(row, model))
        .catch(() => ({ status: "cancellation_requested" as const }));
      if (answer.status !== "cancelled" && answer.status !== "not_found") return { ok: false, status: "in_progress" };
    }
  }
  const ended = await finalizeGeneration(ctx.db, row, { kind: "cancelled" });
  return ended.applied ? { ok: true, status: "cancelled" } : { ok: false, status: ended.row.status };
}
