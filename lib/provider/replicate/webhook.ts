import { DomainError } from "@/lib/core/errors";
import { validationError } from "@/lib/core/validation";
import type { ProviderWebhookEvent } from "../types";
import { resultOf } from "./provider";
import { predictionSchema } from "./schemas";

/**
 * A verified Replicate webhook (the body is the prediction) as the engine's event. Only
 * `completed` events are asked for (`webhook_events_filter`), so an unended prediction is refused
 * 400 (Replicate retries, and a later delivery carries the ending). Output files are mapped like a
 * read result's (./output.ts).
 */
export async function parseReplicateWebhook(raw: string): Promise<ProviderWebhookEvent> {
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    throw new DomainError("invalid_json", "Webhook body is not valid JSON");
  }
  const parsed = predictionSchema.safeParse(json);
  if (!parsed.success) throw validationError("invalid_body", parsed.error);
  const p = parsed.data;
  if (!["succeeded", "failed", "canceled", "aborted"].includes(p.status)) {
    throw new DomainError("invalid_body", `The prediction has not ended (${p.status}); only completed events are handled`);
  }
  let outcome: ProviderWebhookEvent["outcome"];
  try {
    const result = await resultOf(p);
    outcome = result.ok ? { kind: "completed", output: result.output } : { kind: "failed", error: result.error };
  } catch (err) {
    // The output is gone (data_removed): read the prediction again, which fails the job the same way.
    outcome = { kind: "fetch_result", reason: err instanceof Error ? err.message : String(err) };
  }
  return { provider: "replicate", providerRequestId: p.id, outcome, body: p as Record<string, unknown> };
}
