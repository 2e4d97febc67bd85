import type { ServiceContext } from "@/lib/context";
import { randomUUID } from "node:crypto";
import { sql, type SQL } from "drizzle-orm";
import { rawRows, tableRow } from "@/db/client";
import { generationRequests } from "@/db/schema";
import { isSandbox } from "@/lib/auth/principal";
import { afterReserve, reserveCredits, reserveCtes } from "@/lib/billing/ledger/ledger";
import type { ModelRow } from "@/lib/catalog/columns";
import type { ProviderName } from "@/lib/provider";
import { appendEvents, insertEventsFor, progressEvent, statusEvent } from "./event-log";
import { keyInsertFor, recordKey, type Idempotency } from "./idempotency";
import type { GenerationMode, GenerationOperation, GenerationRow, GenerationSurface } from "./types";

export type NewGeneration = {
  model: ModelRow;
  input: Record<string, unknown>;
  surface: GenerationSurface;
  mode: GenerationMode;
  operation: GenerationOperation;
  provider: ProviderName;
  quoteCredits: number;
  webhookUrl: string | null;
  passthrough: boolean;
  /** The request's Idempotency-Key: recorded with the job, in the same statement or transaction. */
  idempotency?: Idempotency;
};

const createdEvents = () => [statusEvent("queued"), progressEvent("queued")];

/**
 * The job row and its reserve, atomically: either both exist or neither does, so a 402 (or a key
 * cap's 429) leaves no trace and nothing has reached the provider yet. Sandbox keys reserve
 * nothing (they never touch the balance).
 *
 * The common case (a balance that covers the quote, a key without a monthly cap, or nothing to
 * reserve) is ONE statement: debit, ledger row, job row and its first events, one round trip and
 * one commit. When that statement debits nothing, the same work runs as a transaction through
 * `reserveCredits`, which locks a capped key's month and tells a short balance (402) from a cap.
 */
export async function createGeneration(ctx: ServiceContext, g: NewGeneration): Promise<GenerationRow> {
  const sandbox = isSandbox(ctx.principal);
  const now = new Date();
  const job: NewJob = {
    id: randomUUID(),
    userId: ctx.principal.userId,
    apiKeyId: ctx.principal.apiKeyId,
    modelId: g.model.modelId,
    surface: g.surface,
    mode: g.mode,
    operation: g.operation,
    passthrough: g.passthrough,
    sandbox,
    status: "queued",
    input: g.input,
    costReservedCredits: sandbox ? 0 : g.quoteCredits,
    provider: g.provider,
    webhookUrl: g.webhookUrl,
    httpRequestId: ctx.requestId ?? null,
    createdAt: now,
    updatedAt: now,
  };
  const reserve =
    job.costReservedCredits > 0
      ? {
          userId: job.userId,
          apiKeyId: job.apiKeyId,
          generationId: job.id,
          credits: job.costReservedCredits,
          description: job.modelId,
          now,
        }
      : null;

  const [created] = await rawRows<Record<string, unknown>>(
    ctx.db,
    sql`with ${reserve ? sql`${reserveCtes(reserve)}, ` : sql``}
         new_job as (${insertJob(job, reserve ? sql`exists (select 1 from debited)` : sql`true`)}),
         new_job_events as (${insertEventsFor("new_job", createdEvents())})${
           g.idempotency
             ? sql`,
         new_key as (${keyInsertFor("new_job", g.idempotency, now)})`
             : sql``
         }
       select new_job.*${reserve ? sql`, (select balance_after from reserved) as reserve_balance_after` : sql``} from new_job`,
  );
  if (created) {
    if (reserve) afterReserve(ctx.db, job.userId, Number(created.reserve_balance_after));
    return tableRow(generationRequests, created);
  }
  return ctx.db.transaction(async (tx) => {
    const [row] = await tx.insert(generationRequests).values(job).returning();
    if (reserve) await reserveCredits(tx, reserve);
    if (g.idempotency) await recordKey(tx, job, g.idempotency);
    await appendEvents(tx, job.id, createdEvents());
    return row!;
  });
}

type NewJob = Pick<
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
  | "webhookUrl"
  | "httpRequestId"
  | "createdAt"
  | "updatedAt"
>;

/** `insert … select … where <condition> returning *` of one job row (the builder has no conditional insert). */
function insertJob(job: NewJob, condition: SQL): SQL {
  const v = job;
  return sql`insert into ${generationRequests}
      (id, user_id, api_key_id, model_id, surface, mode, operation, passthrough, sandbox, status, input,
       cost_reserved_credits, provider, webhook_url, http_request_id, created_at, updated_at)
    select ${v.id}::text, ${v.userId}::text, ${v.apiKeyId}::text, ${v.modelId}::text, ${v.surface}::text, ${v.mode}::text,
       ${v.operation}::text, ${v.passthrough}::boolean, ${v.sandbox}::boolean, ${v.status}::text, ${JSON.stringify(v.input)}::jsonb,
       ${v.costReservedCredits}::bigint, ${v.provider}::text, ${v.webhookUrl}::text, ${v.httpRequestId}::text,
       ${v.createdAt.toISOString()}::timestamptz, ${v.updatedAt.toISOString()}::timestamptz
     where ${condition}
    returning *`;
}
