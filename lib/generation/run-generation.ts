import { ApiError } from "@/lib/http/errors";
import type { RequestContext } from "@/lib/http/handler";
import { startGeneration } from "./start-generation";

/**
 * For partner integrations: one sync generation billed to the caller like any other (reserve,
 * settle, refund on failure, activity with operation `integration`). Throws ApiError on failure
 * (`generation_failed`, `provider_error`, `timeout`, `insufficient_balance`, `invalid_body`, …).
 * `output` carries the service's re-hosted URLs.
 */
export async function runGeneration(
  ctx: Pick<RequestContext<"key">, "db" | "principal" | "requestId">,
  o: { modelId: string; input: Record<string, unknown>; operation?: "integration" },
): Promise<{ requestId: string; output: Record<string, unknown>; costCredits: number }> {
  const row = await startGeneration(ctx, { modelId: o.modelId, input: o.input, surface: "gateway", mode: "sync", operation: o.operation ?? "integration" });
  if (!row.output) throw new ApiError("generation_failed", "The generation produced no output", { requestId: row.id });
  return { requestId: row.id, output: row.output, costCredits: row.costSettledCredits ?? row.costReservedCredits };
}
