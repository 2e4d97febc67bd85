import { sql, type SQL } from "drizzle-orm";
import { rawRows, tableRow, type Db } from "@/db/client";
import { generationRequests } from "@/db/schema";
import { afterReserve, reserveCredits, reserveCtes, type ReserveInput } from "@/lib/billing/ledger/ledger";
import { progressEvent, statusEvent } from "../event-log";
import { keyInsertFor, type Idempotency } from "../idempotency";
import type { GenerationRow } from "../types";
import { insertEventsFor } from "./job-events";

export type NewGenerationRow = Pick<
  GenerationRow,
  | "id"
  | "userId"
  | "apiKeyId"
  | "modelId"
  | "surface"
  | "mode"
  | "operation"
  | "passthrough"
  | "sandbox"
  | "status"
  | "input"
  | "costReservedCredits"
  | "provider"
  | "routing"
  | "providerEndpointId"
  | "attempts"
  | "providerCostCredits"
  | "webhookUrl"
  | "httpRequestId"
  | "runner"
  | "createdAt"
  | "updatedAt"
>;

/**
 * The job row, its first events, its Idempotency-Key and its reserve, atomically: either all
 * exist or none does, so a 402 (or a key cap's 429) leaves no trace. The common case (a balance
 * that covers the quote, a key without a monthly cap, or nothing to reserve) is ONE statement
 * with the ledger's reserve as CTEs; when that statement debits nothing, the same insert runs in
 * a transaction with `reserveCredits`, which locks a capped key's month and tells a short
 * balance (402) from a cap.
 */
export async function insertGeneration(
  db: Db,
  job: NewGenerationRow,
  reserve: ReserveInput | null,
  idempotency?: Idempotency,
): Promise<GenerationRow> {
  const [created] = await rawRows<Record<string, unknown>>(db, creation(job, reserve, idempotency));
  if (created) {
    if (reserve) afterReserve(db, job.userId, Number(created.reserve_balance_after));
    return tableRow(generationRequests, created);
  }
  return db.transaction(async (tx) => {
    const [row] = await rawRows<Record<string, unknown>>(tx, creation(job, null, idempotency));
    await reserveCredits(tx, reserve!);
    return tableRow(generationRequests, row!);
  });
}

const createdEvents = () => [statusEvent("queued"), progressEvent("queued")];

/** The job's insert with its events and key, after the reserve's CTEs when given one (then only if it debited). */
function creation(job: NewGenerationRow, reserve: ReserveInput | null, idempotency: Idempotency | undefined): SQL {
  return sql`with ${reserve ? sql`${reserveCtes(reserve)}, ` : sql``}
         new_job as (${insertJob(job, reserve ? sql`exists (select 1 from debited)` : sql`true`)}),
         new_job_events as (${insertEventsFor("new_job", createdEvents())})${
           idempotency
             ? sql`,
         new_key as (${keyInsertFor("new_job", idempotency, job.createdAt)})`
             : sql``
         }
       select new_job.*${reserve ? sql`, (select balance_after from reserved) as reserve_balance_after` : sql``} from new_job`;
}

/** `insert … select … where <condition> returning *` of one job row (the builder has no conditional insert). */
function insertJob(job: NewGenerationRow, condition: SQL): SQL {
  const v = job;
  return sql`insert into ${generationRequests}
      (id, user_id, api_key_id, model_id, surface, mode, operation, passthrough, sandbox, status, input,
       cost_reserved_credits, provider, routing, provider_endpoint_id, attempts, provider_cost_credits, webhook_url, http_request_id,
       runner, created_at, updated_at)
    select ${v.id}::text, ${v.userId}::text, ${v.apiKeyId}::text, ${v.modelId}::text, ${v.surface}::text, ${v.mode}::text,
       ${v.operation}::text, ${v.passthrough}::boolean, ${v.sandbox}::boolean, ${v.status}::text, ${JSON.stringify(v.input)}::jsonb,
       ${v.costReservedCredits}::bigint, ${v.provider}::text, ${v.routing === null ? null : JSON.stringify(v.routing)}::jsonb,
       ${v.providerEndpointId}::text, ${JSON.stringify(v.attempts)}::jsonb, ${v.providerCostCredits}::bigint, ${v.webhookUrl}::text, ${v.httpRequestId}::text, ${v.runner}::text,
       ${v.createdAt.toISOString()}::timestamptz, ${v.updatedAt.toISOString()}::timestamptz
     where ${condition}
    returning *`;
}
