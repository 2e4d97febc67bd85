import { isSandbox } from "@/lib/auth/principal";
import { getModelForRun } from "@/lib/catalog/get";
import { validateModelInput } from "@/lib/catalog/validate-input";
import { quoteForInput } from "@/lib/money/pricing";
import { breakerFor, providerFor } from "@/lib/provider";
import { createGeneration } from "./create-generation";
import { dispatchGeneration } from "./dispatch";
import { lapper } from "@/lib/http/server-timing";
import { log } from "@/lib/logger";
import { runSync } from "./run-sync";
import type { GenerationContext, GenerationMode, GenerationOperation, GenerationRow, GenerationSurface } from "./types";

export type StartGeneration = {
  modelId: string;
  input: unknown;
  surface: GenerationSurface;
  mode: GenerationMode;
  operation: GenerationOperation;
  /** Where per-stage times are recorded (lib/http/server-timing: the request), when the caller wants them. */
  timing?: object;
  /** Completion callback, already checked against the outbound rules (checkCallbackUrl). */
  webhookUrl?: string | null;
  passthrough?: boolean;
};

/**
 * The one entry of every generation: model lookup → input validation (400 before any charge) →
 * quote → breaker (503, nothing charged) → the job row and its reserve in one transaction (402
 * before anything runs) → dispatch: inline for sync, the queue function otherwise. Returns the
 * final row (sync) or the queued row (queue).
 */
export async function startGeneration(ctx: GenerationContext, o: StartGeneration): Promise<GenerationRow> {
  const lap = lapper(o.timing);
  const model = await getModelForRun(ctx.db, o.modelId);
  lap("model");
  const input = validateModelInput(model, o.input);
  const quote = quoteForInput(model, input);
  const provider = providerFor({ sandbox: isSandbox(ctx.principal), modelProvider: model.provider });
  breakerFor(provider.name).assertAvailable();
  lap("validate");
  const row = await createGeneration(ctx, {
    model,
    input,
    surface: o.surface,
    mode: o.mode,
    operation: o.operation,
    provider: provider.name,
    quoteCredits: quote.credits,
    webhookUrl: o.webhookUrl ?? null,
    passthrough: o.passthrough ?? false,
  });
  lap("reserve");
  if (o.mode === "sync") return runSync(ctx.db, row, model, lap);
  // If this hand-off is lost (a crash right here), the re-drive sweep sends it again.
  await dispatchGeneration(row.id).catch((error) => log.error("queued generation not dispatched yet", { generationId: row.id, error }));
  return row;
}
