import { randomUUID } from "node:crypto";
import { and, eq, notInArray, sql } from "drizzle-orm";
import { tableRow, type Db } from "@/db/client";
import { activity, generationRequests, webhookDeliveries } from "@/db/schema";
import { refundGeneration, settleGeneration, SETTLE_TOLERANCE_CREDITS } from "@/lib/billing/ledger/ledger";
import { log } from "@/lib/logger";
import { countGeneration } from "@/lib/observability/metrics";
import { quoteForOutput } from "@/lib/billing/pricing/pricing";
import { callbackPayload, requestCallbackDelivery } from "./callbacks";
import { appendEvents, insertEventListFor, notifyGeneration, progressEvent, statusEvent } from "./event-log";
import { cachedModelRow } from "@/lib/catalog/get";
import { discardUnstored, markWrittenStored, storedAssetsUpdate, storedAssetsValues } from "@/lib/assets/rehost";
import { preparedStatement } from "@/db/prepared";
import { bumpPopularity } from "./popularity";
import { NOTHING_UNRECORDED, type Unrecorded } from "./run-journal";
import { FINAL_STATUSES, FINAL_STATUS_SQL_LIST, type GenerationOutcome, type GenerationRow } from "./types";

export type Finalized = { applied: boolean; row: GenerationRow };

/**
 * The ONE way a job ends, whoever ends it (the sync request, the queue function, a provider
 * webhook, a cancel, the failure handler). Atomically: a conditional status update that only a job
 * not yet final passes, then the money (settle from the actual output, or a full refund), the
 * activity record, the final events and the callback delivery row. A second ending (a duplicate
 * webhook, a job retry, a cancel racing a completion) fails the conditional update and changes
 * nothing. The common ending — completed at the reserved price, no callback — is one statement;
 * the others (a refund, a settle difference, a callback row) run as one transaction.
 */
export async function finalizeGeneration(
  db: Db,
  job: GenerationRow,
  outcome: GenerationOutcome,
  unrecorded: Unrecorded = NOTHING_UNRECORDED,
  now = new Date(),
): Promise<Finalized> {
  const model = outcome.kind === "completed" && !job.sandbox ? await cachedModelRow(db, job.modelId) : null;
  const base = {
    status: outcome.kind,
    completedAt: now,
    costSettledCredits: outcome.kind === "completed" && !job.sandbox ? job.costReservedCredits : 0,
    ...(outcome.kind === "completed" ? { output: outcome.output, providerOutput: outcome.providerOutput } : {}),
    ...(outcome.kind === "failed" ? { errorCode: outcome.errorCode, errorMessage: outcome.message.slice(0, 1000) } : {}),
    ...(outcome.kind === "cancelled" ? { errorCode: "cancelled", errorMessage: "Cancelled by the user" } : {}),
  };
  // The run's progress it left to its ending (run-journal) comes first: the provider's id, `submitted`, `storing`.
  const { submission, written } = unrecorded;
  const finalEvents = [
    ...unrecorded.events,
    statusEvent(outcome.kind, outcome.kind === "failed" ? { error: outcome.errorCode } : {}),
    progressEvent(outcome.kind, outcome.kind === "failed" ? { message: outcome.message } : {}),
  ];
  const notFinal = and(eq(generationRequests.id, job.id), notInArray(generationRequests.status, [...FINAL_STATUSES]));
  const actualCredits = (row: GenerationRow) =>
    outcome.kind === "completed" && model ? quoteForOutput(model, outcome.providerOutput, row.input).credits : row.costReservedCredits;
  const movesMoney =
    !job.sandbox &&
    job.costReservedCredits > 0 &&
    (outcome.kind !== "completed" || Math.abs(actualCredits(job) - job.costReservedCredits) > SETTLE_TOLERANCE_CREDITS);

  if (!movesMoney && !job.webhookUrl) {
    // The common ending (the reserve was the exact price, no callback): status, activity and
    // final events in ONE statement, guarded by the same conditional status change, built once
    // per shape (db/prepared) and mapped by `tableRow`: building its SQL or the builder's
    // 27-column returning cost more CPU here than the statement's round trip.
    const shape: EndingShape = `${outcome.kind}:${submission ? "submitted" : "-"}:${written.length}`;
    const [raw] = await commonEnding<Record<string, unknown>>(db, shape, {
      id: job.id,
      status: base.status,
      at: now.toISOString(),
      cost: base.costSettledCredits,
      output: "output" in base ? JSON.stringify(base.output) : null,
      providerOutput: "output" in base ? JSON.stringify(base.providerOutput) : null,
      errorCode: "errorCode" in base ? base.errorCode : null,
      errorMessage: "errorCode" in base ? base.errorMessage : null,
      providerRequestId: submission?.providerRequestId ?? null,
      submittedAt: submission?.at.toISOString() ?? null,
      activityId: randomUUID(),
      durationMs: now.getTime() - job.createdAt.getTime(),
      events: JSON.stringify(finalEvents),
      ...storedAssetsValues(written),
    });
    if (written.length) await discardUnstored(written, (raw?.stored_asset_ids as string[] | undefined) ?? []);
    const row = raw?.id ? tableRow(generationRequests, raw) : null;
    return afterFinal(db, job, row ? { row, deliveryId: null } : null);
  }

  const result = await db.transaction(async (tx) => {
    await markWrittenStored(tx, written);
    const [claimed] = await tx
      .update(generationRequests)
      .set({
        ...base,
        ...(submission
          ? {
              providerRequestId: sql`coalesce(${generationRequests.providerRequestId}, ${submission.providerRequestId})`,
              submittedAt: sql`coalesce(${generationRequests.submittedAt}, ${submission.at.toISOString()}::timestamptz)`,
            }
          : {}),
      })
      .where(notFinal)
      .returning();
    if (!claimed) return null;
    let row = claimed;
    if (!row.sandbox && row.costReservedCredits > 0) {
      const money = { userId: row.userId, apiKeyId: row.apiKeyId, generationId: row.id, reservedAt: row.createdAt };
      if (outcome.kind === "completed") {
        const settled = await settleGeneration(tx, {
          ...money,
          reservedCredits: row.costReservedCredits,
          actualCredits: actualCredits(row),
        });
        if (settled.settledCredits !== row.costSettledCredits) {
          const [updated] = await tx
            .update(generationRequests)
            .set({ costSettledCredits: settled.settledCredits })
            .where(eq(generationRequests.id, row.id))
            .returning();
          row = updated!;
        }
      } else {
        await refundGeneration(tx, { ...money, credits: row.costReservedCredits, description: `${row.modelId}: ${outcome.kind}` });
      }
    }
    await tx
      .insert(activity)
      .values({
        id: randomUUID(),
        userId: row.userId,
        apiKeyId: row.apiKeyId,
        modelId: row.modelId,
        operation: row.operation,
        credits: row.costSettledCredits ?? 0,
        status: row.status,
        errorCode: row.errorCode,
        requestId: row.id,
        providerRequestId: row.providerRequestId,
        durationMs: now.getTime() - row.createdAt.getTime(),
        sandbox: row.sandbox,
      })
      .onConflictDoNothing();
    await appendEvents(tx, row.id, finalEvents);
    let deliveryId: string | null = null;
    if (row.webhookUrl) {
      deliveryId = randomUUID();
      const inserted = await tx
        .insert(webhookDeliveries)
        .values({ id: deliveryId, userId: row.userId, generationId: row.id, url: row.webhookUrl, payload: callbackPayload(row!) })
        .onConflictDoNothing()
        .returning({ id: webhookDeliveries.id });
      if (inserted.length === 0) deliveryId = null;
    }
    return { row, deliveryId };
  });
  return afterFinal(db, job, result);
}

/** After the ending committed (or lost to another ending): wake waiters, count, queue the callback. */
async function afterFinal(
  db: Db,
  job: GenerationRow,
  result: { row: GenerationRow; deliveryId: string | null } | null,
): Promise<Finalized> {
  if (!result) {
    const [current] = await db.select().from(generationRequests).where(eq(generationRequests.id, job.id));
    return { applied: false, row: current ?? job };
  }
  notifyGeneration(job.id);
  countGeneration(result.row.modelId, result.row.status);
  if (result.row.status === "completed") bumpPopularity(result.row.modelId);
  if (result.deliveryId) {
    await requestCallbackDelivery(result.deliveryId).catch((error) =>
      // The delivery row exists: the re-drive sweep sends it if this hand-off was lost.
      log.warn("completion callback could not be queued", { generationId: job.id, error }),
    );
  }
  return { applied: true, row: result.row };
}

type EndingShape = `${GenerationOutcome["kind"]}:${"submitted" | "-"}:${number}`;

/**
 * The common ending's statement for one shape (the outcome's kind, whether the run left its
 * submission, how many copied files it left to mark): the job's conditional final update, its
 * activity record, its final events (one JSON list, in order) and the files' `stored` marks.
 */
const commonEnding = preparedStatement((shape: EndingShape) => {
  const [kind, submitted, files] = shape.split(":") as [GenerationOutcome["kind"], string, string];
  const p = (name: string) => sql.placeholder(name);
  const changes = [
    sql`status = ${p("status")}::text`,
    sql`completed_at = ${p("at")}::timestamptz`,
    sql`updated_at = ${p("at")}::timestamptz`,
    sql`cost_settled_credits = ${p("cost")}::bigint`,
    ...(kind === "completed" ? [sql`output = ${p("output")}::jsonb`, sql`provider_output = ${p("providerOutput")}::jsonb`] : []),
    ...(kind !== "completed" ? [sql`error_code = ${p("errorCode")}::text`, sql`error_message = ${p("errorMessage")}::text`] : []),
    ...(submitted === "submitted"
      ? [
          sql`provider_request_id = coalesce(provider_request_id, ${p("providerRequestId")}::text)`,
          sql`submitted_at = coalesce(submitted_at, ${p("submittedAt")}::timestamptz)`,
        ]
      : []),
  ];
  const marks = Number(files);
  return sql`with finished_job as (
        update ${generationRequests} set ${sql.join(changes, sql`, `)}
         where id = ${p("id")}::text and status not in (${FINAL_STATUS_SQL_LIST})
        returning *
      ), finished_activity as (
        insert into ${activity} (id, user_id, api_key_id, model_id, operation, credits, status, error_code, request_id,
            provider_request_id, duration_ms, sandbox)
        select ${p("activityId")}::text, user_id, api_key_id, model_id, operation, coalesce(cost_settled_credits, 0), status, error_code, id,
            provider_request_id, ${p("durationMs")}::bigint, sandbox
          from finished_job
        on conflict do nothing
      ), finished_events as (${insertEventListFor("finished_job", p("events"))})${
        // Files copied by the run are marked stored here too, even if another ending won.
        marks
          ? sql`, stored_assets as (${storedAssetsUpdate(
              Array.from({ length: marks }, (_, i) => p(`asset${i}`)),
              p("assets"),
            )})`
          : sql``
      }
      select ${marks ? sql`(select coalesce(json_agg(id), '[]'::json) from stored_assets) as stored_asset_ids, ` : sql``}finished_job.*
        from (select 1) as one left join finished_job on true`;
});
