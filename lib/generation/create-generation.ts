import { randomUUID } from "node:crypto";
import { generationRequests } from "@/db/schema";
import { isSandbox } from "@/lib/auth/principal";
import { reserveCredits } from "@/lib/billing/ledger";
import type { ModelRow } from "@/lib/catalog/columns";
import type { ProviderName } from "@/lib/provider";
import { appendEvents, progressEvent, statusEvent } from "./events";
import type { GenerationContext, GenerationMode, GenerationOperation, GenerationRow, GenerationSurface } from "./types";

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
};

/**
 * The job row and its reserve, in ONE transaction: either both exist or neither does, so a 402
 * (or a key cap's 429) leaves no trace and nothing has reached the provider yet. Sandbox keys
 * reserve nothing (they never touch the balance).
 */
export async function createGeneration(ctx: GenerationContext, g: NewGeneration): Promise<GenerationRow> {
  const id = randomUUID();
  const sandbox = isSandbox(ctx.principal);
  return ctx.db.transaction(async (tx) => {
    const [row] = await tx
      .insert(generationRequests)
      .values({
        id,
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
      })
      .returning();
    if (!sandbox && g.quoteCredits > 0) {
      await reserveCredits(tx, {
        userId: ctx.principal.userId,
        apiKeyId: ctx.principal.apiKeyId,
        generationId: id,
        credits: g.quoteCredits,
        description: `${g.model.modelId}`,
        now: row!.createdAt,
      });
    }
    await appendEvents(tx, id, [statusEvent("queued"), progressEvent("queued")]);
    return row!;
  });
}
