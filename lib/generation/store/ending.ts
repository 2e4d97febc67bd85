import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { rawRows, tableRow, type Db, type Executor } from "@/db/client";
import { preparedStatement } from "@/db/prepared";
import { activity, generationRequests, webhookDeliveries } from "@/db/schema";
import type { WrittenAsset } from "@/lib/assets/rehost";
import { refundCtes, refundValues, settleGeneration, SETTLE_TOLERANCE_CREDITS } from "@/lib/billing/ledger/ledger";
import type { NewGenerationEvent } from "../event-log";
import { FINAL_STATUS_SQL_LIST, type GenerationOutcome, type GenerationRow } from "../types";
import { discardUnstored, storedAssetsUpdate, storedAssetsValues } from "./asset-marks";
import { insertEventListFor } from "./job-events";
import type { Submission } from "./progress";

export type Ending = {
  /** The job as its ender read it (what it holds that never changes: owner, reserve, creation). */
  job: GenerationRow;
  outcome: GenerationOutcome;
  /** Every event the ending writes, in order: the run's unrecorded progress first, then the final ones. */
  events: NewGenerationEvent[];
  /** The run's provider id and copied files it left to its ending (RunJournal). */
  submission: Submission | null;
  written: WrittenAsset[];
  now: Date;
  /** A completed run's price from its actual output. */
  actualCredits: number;
  /** The completion callback's body, for a job with a callback URL. */
  callbackPayload: (row: GenerationRow) => Record<string, unknown>;
};

/** `statement`: one statement; `transaction`: the same statement after the settlement, with the callback's row. */
export type EndingPath = "statement" | "transaction";
export type Ended = { row: GenerationRow; deliveryId: string | null } | null;

const charged = (job: GenerationRow) => !job.sandbox && job.costReservedCredits > 0;
const settles = (e: Ending) =>
  e.outcome.kind === "completed" && charged(e.job) && Math.abs(e.actualCredits - e.job.costReservedCredits) > SETTLE_TOLERANCE_CREDITS;

/** The path an ending needs: a transaction only to settle a price difference or to owe a callback. */
export const endingPath = (e: Ending): EndingPath => (settles(e) || e.job.webhookUrl ? "transaction" : "statement");

/**
 * Writes a job's ending, guarded by a conditional status change that only a job not yet final
 * passes (a second ending changes nothing and gets null): the final status and result, the refund
 * (the ledger's CTEs) or the reserve standing as the price, the activity record, the events, the
 * stored marks of the run's files. One statement (`endingStatement`) whichever the path: the
 * transaction path first locks the job and settles a price difference, then runs it with the
 * settled price, then writes the callback's delivery row.
 */
export async function writeEnding(db: Db, e: Ending, path: EndingPath = endingPath(e)): Promise<Ended> {
  if (path === "statement" && endingPath(e) !== "statement") throw new Error("this ending moves money or owes a callback");
  const priced = e.outcome.kind === "completed" && !e.job.sandbox ? e.job.costReservedCredits : 0;
  if (path === "statement") return (await runEnding(db, e, priced)).ended;
  const { ended, storedIds } = await db.transaction(async (tx) => {
    const [locked] = await rawRows<Record<string, unknown>>(
      tx,
      sql`select * from ${generationRequests} where id = ${e.job.id} and status not in (${FINAL_STATUS_SQL_LIST}) for no key update`,
    );
    let cost = priced;
    if (locked && settles(e)) {
      const row = tableRow(generationRequests, locked);
      const money = { userId: row.userId, apiKeyId: row.apiKeyId, generationId: row.id, reservedAt: row.createdAt };
      cost = (await settleGeneration(tx, { ...money, reservedCredits: row.costReservedCredits, actualCredits: e.actualCredits }))
        .settledCredits;
    }
    const run = await runEnding(tx, e, cost, false);
    if (!run.ended?.row.webhookUrl) return run;
    const row = run.ended.row;
    const [delivery] = await tx
      .insert(webhookDeliveries)
      .values({ id: randomUUID(), userId: row.userId, generationId: row.id, url: row.webhookUrl!, payload: e.callbackPayload(row) })
      .onConflictDoNothing()
      .returning({ id: webhookDeliveries.id });
    return { ...run, ended: { row, deliveryId: delivery?.id ?? null } };
  });
  await discardUnstored(e.written, storedIds);
  return ended;
}

/** Runs the ending's statement; the objects of files deleted while copied are discarded after it (at once unless `discard` is false). */
async function runEnding(db: Executor, e: Ending, cost: number, discard = true): Promise<{ ended: Ended; storedIds: string[] }> {
  const { job, outcome, submission, written, now } = e;
  const refund = outcome.kind !== "completed" && charged(job);
  const shape: EndingShape = `${outcome.kind}:${submission ? "submitted" : "-"}:${written.length}:${refund ? "refund" : "-"}`;
  const [raw] = await endingStatement<Record<string, unknown>>(db, shape, {
    id: job.id,
    status: outcome.kind,
    at: now.toISOString(),
    cost,
    output: outcome.kind === "completed" ? JSON.stringify(outcome.output) : null,
    providerOutput: outcome.kind === "completed" ? JSON.stringify(outcome.providerOutput) : null,
    errorCode: outcome.kind === "failed" ? outcome.errorCode : outcome.kind === "cancelled" ? "cancelled" : null,
    errorMessage:
      outcome.kind === "failed" ? outcome.message.slice(0, 1000) : outcome.kind === "cancelled" ? "Cancelled by the user" : null,
    providerRequestId: submission?.providerRequestId ?? null,
    submittedAt: submission?.at.toISOString() ?? null,
    routeProvider: submission?.provider ?? null,
    routeEndpointId: submission?.endpointId ?? null,
    routeAttempts: submission ? JSON.stringify(submission.attempts) : null,
    routeCost: submission?.costCredits ?? null,
    activityId: randomUUID(),
    durationMs: now.getTime() - job.createdAt.getTime(),
    events: JSON.stringify(e.events),
    ...storedAssetsValues(written),
    ...(refund
      ? refundValues({
          userId: job.userId,
          apiKeyId: job.apiKeyId,
          generationId: job.id,
          credits: job.costReservedCredits,
          reservedAt: job.createdAt,
          description: `${job.modelId}: ${outcome.kind}`,
        })
      : {}),
  });
  const storedIds = (raw?.stored_asset_ids as string[] | undefined) ?? [];
  if (discard && written.length) await discardUnstored(written, storedIds);
  return { ended: raw?.id ? { row: tableRow(generationRequests, raw), deliveryId: null } : null, storedIds };
}

type EndingShape = `${GenerationOutcome["kind"]}:${"submitted" | "-"}:${number}:${"refund" | "-"}`;

/**
 * The ending's statement for one shape (the outcome's kind, whether the run left its submission,
 * how many copied files it left to mark, whether the reserve is refunded), built once per handle
 * (db/prepared; docs/database.md says why): the job's conditional final update, the refund, the
 * activity record, the events (one JSON list, in order) and the files' `stored` marks.
 */
const endingStatement = preparedStatement((shape: EndingShape) => {
  const [kind, submitted, files, refund] = shape.split(":") as [GenerationOutcome["kind"], string, string, string];
  const p = (name: string) => sql.placeholder(name);
  const changes = [
    sql`status = ${p("status")}::text`,
    sql`completed_at = ${p("at")}::timestamptz`,
    sql`updated_at = ${p("at")}::timestamptz`,
    sql`cost_settled_credits = ${p("cost")}::bigint`,
    // A finished job waits in no queue; a completed one started, whether or not a status check saw it
    // start (the sync run and the webhook never ask): at its submission at the latest.
    sql`queue_position = null`,
    ...(kind === "completed"
      ? [
          sql`output = ${p("output")}::jsonb`,
          sql`provider_output = ${p("providerOutput")}::jsonb`,
          submitted === "submitted"
            ? sql`started_at = coalesce(started_at, submitted_at, ${p("submittedAt")}::timestamptz)`
            : sql`started_at = coalesce(started_at, submitted_at)`,
        ]
      : []),
    ...(kind !== "completed" ? [sql`error_code = ${p("errorCode")}::text`, sql`error_message = ${p("errorMessage")}::text`] : []),
    ...(submitted === "submitted"
      ? [
          sql`provider_request_id = coalesce(provider_request_id, ${p("providerRequestId")}::text)`,
          sql`submitted_at = coalesce(submitted_at, ${p("submittedAt")}::timestamptz)`,
          // The route that took the submission, unless one was recorded already (every right side reads the row as it was).
          sql`provider = case when provider_request_id is null then ${p("routeProvider")}::text else provider end`,
          sql`provider_endpoint_id = case when provider_request_id is null then ${p("routeEndpointId")}::text else provider_endpoint_id end`,
          sql`attempts = case when provider_request_id is null then ${p("routeAttempts")}::jsonb else attempts end`,
          sql`provider_cost_credits = case when provider_request_id is null then ${p("routeCost")}::bigint else provider_cost_credits end`,
        ]
      : []),
  ];
  const marks = Number(files);
  return sql`with finished_job as (
        update ${generationRequests} set ${sql.join(changes, sql`, `)}
         where id = ${p("id")}::text and status not in (${FINAL_STATUS_SQL_LIST})
        returning *
      ), ${
        // The job's key as its row has it now: deleting a key sets it null under a running job.
        refund === "refund" ? sql`${refundCtes("finished_job", { apiKeyId: sql`(select api_key_id from finished_job)` })}, ` : sql``
      }finished_activity as (
        insert into ${activity} (id, user_id, api_key_id, model_id, operation, credits, status, error_code, request_id,
            provider_request_id, duration_ms, sandbox, provider, attempts)
        select ${p("activityId")}::text, user_id, api_key_id, model_id, operation, coalesce(cost_settled_credits, 0), status, error_code, id,
            provider_request_id, ${p("durationMs")}::bigint, sandbox, provider, attempts
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
