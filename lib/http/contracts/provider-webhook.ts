import { z } from "zod";
import { defineOperations } from "./operation";

// A provider's job completion (/webhooks/provider); payment notifications are in ./billing.ts.
export const providerWebhookAnswer = z
  .object({
    ok: z.boolean(),
    status: z.string(),
    deduped: z.boolean(),
    unmapped: z.boolean(),
    assets: z.object({ found: z.int(), uploaded: z.int(), failed: z.int() }),
  })
  .meta({ id: "ProviderWebhookResult" });

export const providerWebhookBody = z
  .object({
    request_id: z.string(),
    gateway_request_id: z.string().optional(),
    status: z.enum(["OK", "ERROR"]),
    error: z.string().optional(),
    payload: z.unknown().optional(),
    payload_error: z.string().optional(),
  })
  .meta({ id: "ProviderWebhook" });

export const providerWebhookOperations = defineOperations([
  {
    method: "post",
    path: "/webhooks/provider",
    operationId: "providerWebhook",
    summary: "Provider job completion (signature-verified)",
    description:
      "fal: X-Fal-Webhook-* headers, Ed25519 over request id, user id, timestamp and the body's SHA-256, keys from FAL_JWKS_URL. " +
      "The local simulator: Standard Webhooks headers with its own secret. A redelivery answers `deduped: true`; a request no job knows, `unmapped: true`.",
    tags: ["Webhooks"],
    surface: "gateway",
    auth: "none",
    body: providerWebhookBody,
    responses: { 200: { description: "Handled", schema: providerWebhookAnswer } },
    // 503 while fal's webhook keys cannot be read (Retry-After: fal retries the delivery).
    errors: ["invalid_signature", "invalid_body", "invalid_json", { code: "provider_error", status: 503 }],
  },
]);
