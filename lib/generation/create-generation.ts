import type { ServiceContext } from "@/lib/auth/context";
import { randomUUID } from "node:crypto";
import { isSandbox } from "@/lib/auth/principal";
import type { ModelRow } from "@/lib/catalog/columns";
import type { Idempotency } from "./idempotency";
import type { StartPlan } from "./routing";
import { thisRunner } from "./runners";
import { insertGeneration, type NewGenerationRow } from "./store";
import type { GenerationMode, GenerationOperation, GenerationRow, GenerationSurface } from "./types";

export type NewGeneration = {
  model: ModelRow;
  input: Record<string, unknown>;
  surface: GenerationSurface;
  mode: GenerationMode;
  operation: GenerationOperation;
  /** The routes planned (routing.ts planRoutes): the job starts on the first. */
  plan: StartPlan;
  quoteCredits: number;
  webhookUrl: string | null;
  passthrough: boolean;
  /** The request's Idempotency-Key: recorded with the job, in the same statement or transaction. */
  idempotency?: Idempotency;
};

/**
 * The job row and its reserve, atomically (the store's `insertGeneration`), before anything
 * reaches the provider. Sandbox keys reserve nothing (they never touch the balance).
 */
export async function createGeneration(ctx: ServiceContext, g: NewGeneration): Promise<GenerationRow> {
  const sandbox = isSandbox(ctx.principal);
  const now = new Date();
  const job: NewGenerationRow = {
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
    provider: g.plan.routing.routes[0]!.provider,
    // A job with one route is what a job was before routes: no plan to keep.
    routing: g.plan.routing.routes.length > 1 ? g.plan.routing : null,
    providerEndpointId: g.plan.routing.routes[0]!.endpointId,
    attempts: g.plan.attempts,
    providerCostCredits: g.plan.routing.routes[0]!.costCredits ?? null,
    webhookUrl: g.webhookUrl,
    httpRequestId: ctx.requestId ?? null,
    // A sync job runs in this process: if it dies, its peers take the job over (runners.ts).
    runner: g.mode === "sync" ? await thisRunner() : null,
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

  return insertGeneration(ctx.db, job, reserve, g.idempotency);
}
