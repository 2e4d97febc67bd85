import type { ServiceContext } from "@/lib/auth/context";
import { isSandbox } from "@/lib/auth/principal";
import { getModelForRun } from "@/lib/catalog/get";
import { validateModelInput } from "@/lib/catalog/validate-input";
import { quoteForInput } from "@/lib/pricing/pricing";
import { createGeneration } from "./create-generation";
import { dispatchGeneration } from "./dispatch";
import { refuseUnfetchableInputUrls } from "./input-urls";
import { keyedGeneration, replayGeneration, type Idempotency } from "./idempotency";
import { lapper } from "@/lib/observability/server-timing";
import { log } from "@/lib/core/logger";
import { planRoutes, type ProviderPreferences } from "./routing";
import { runSync } from "./run-sync";
import type { GenerationMode, GenerationOperation, GenerationRow, GenerationSurface } from "./types";

export type StartGeneration = {
  modelId: string;
  input: unknown;
  surface: GenerationSurface;
  mode: GenerationMode;
  operation: GenerationOperation;
  /** Where per-stage times are recorded (lib/observability/server-timing: the request), when the caller wants them. */
  timing?: object;
  /** Completion callback, already checked against the outbound rules (checkCallbackUrl). */
  webhookUrl?: string | null;
  passthrough?: boolean;
  /** The request's Idempotency-Key (idempotencyOf): a repeat answers with the key's job. */
  idempotency?: Idempotency;
  /** The client's request: a repeat waiting on a running sync job stops when it goes away. */
  signal?: AbortSignal;
  /** How the request steers the providers (the skill body's `provider`, the X-Gateway-Provider header). */
  providers?: ProviderPreferences;
};

/**
 * The one entry of every generation: model lookup → input validation, media URLs included (400
 * before any charge) → quote → the routes it may take (routing.ts; every breaker open: 503, nothing charged) → the job row and its reserve in one
 * transaction (402 before anything runs) → dispatch: inline for sync, the queue function
 * otherwise. Returns the final row (sync) or the queued row (queue).
 *
 * With an Idempotency-Key, a key already recorded answers with its job before anything else (a
 * retry after a top-up or while the breaker is open still gets the first outcome). A request that
 * fails to create its job looks the key up once more: if a concurrent duplicate recorded it
 * meanwhile (its insert won the unique index, or took the balance first), that job is the answer.
 */
export async function startGeneration(ctx: ServiceContext, o: StartGeneration): Promise<GenerationRow> {
  const startedAtMs = Date.now();
  const keyed = o.idempotency && (await keyedGeneration(ctx, o.idempotency));
  if (keyed) return replayGeneration(ctx.db, keyed, o.mode, startedAtMs, o.signal);
  const lap = lapper(o.timing);
  const model = await getModelForRun(ctx.db, o.modelId);
  lap("model");
  const input = validateModelInput(model, o.input);
  await refuseUnfetchableInputUrls(input);
  const quote = quoteForInput(model, input);
  // The routes it may take; every provider's breaker open is a 503 before anything is charged.
  const plan = await planRoutes(ctx.db, model, quote, { sandbox: isSandbox(ctx.principal), preferences: o.providers });
  lap("validate");
  let row: GenerationRow;
  try {
    row = await createGeneration(ctx, {
      model,
      input,
      surface: o.surface,
      mode: o.mode,
      operation: o.operation,
      plan,
      quoteCredits: quote.credits,
      webhookUrl: o.webhookUrl ?? null,
      passthrough: o.passthrough ?? false,
      idempotency: o.idempotency,
    });
  } catch (err) {
    const winner = o.idempotency && (await keyedGeneration(ctx, o.idempotency));
    if (!winner) throw err;
    return replayGeneration(ctx.db, winner, o.mode, startedAtMs, o.signal);
  }
  lap("reserve");
  if (o.mode === "sync") return runSync(ctx.db, row, model, lap);
  // If this hand-off is lost (a crash right here), the re-drive sweep sends it again.
  await dispatchGeneration(row.id).catch((error) => log.error("queued generation not dispatched yet", { generationId: row.id, error }));
  return row;
}
