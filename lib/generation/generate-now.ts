import type { ServiceContext } from "@/lib/auth/context";
import { DomainError } from "@/lib/core/errors";
import type { Idempotency } from "./idempotency";
import { startGeneration } from "./start-generation";

/**
 * For partner integrations: one sync generation billed to the caller like any other (reserve,
 * settle, refund on failure, activity with operation `integration`). Throws DomainError on failure
 * (`generation_failed`, `provider_error`, `timeout`, `insufficient_balance`, `invalid_body`, …).
 * `output` carries the service's re-hosted URLs. With `idempotency` (the partner request's key), a
 * repeat answers with the first request's generation, waiting for it while it runs.
 */
export async function generateNow(
  ctx: ServiceContext,
  o: { modelId: string; input: Record<string, unknown>; operation?: "integration"; idempotency?: Idempotency },
): Promise<{ requestId: string; output: Record<string, unknown>; costCredits: number }> {
  const row = await startGeneration(ctx, {
    modelId: o.modelId,
    input: o.input,
    surface: "gateway",
    mode: "sync",
    operation: o.operation ?? "integration",
    idempotency: o.idempotency,
  });
  if (!row.output) throw new DomainError("generation_failed", "The generation produced no output", { requestId: row.id });
  return { requestId: row.id, output: row.output, costCredits: row.costSettledCredits ?? row.costReservedCredits };
}
