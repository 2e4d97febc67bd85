import { z } from "zod";
import { DomainError } from "@/lib/core/errors";
import { validationError } from "@/lib/core/validation";
import { describeDetail, ModelFailedError } from "../errors";
import type { ProviderName, ProviderWebhookEvent, ProviderWebhookOutcome } from "../types";

/**
 * The body fal POSTs when a request finishes (notes/fal.md §4), which the local simulator sends
 * too, parsed into the engine's event (../types.ts). `payload` is the model output on OK, the error body on ERROR, and
 * null with `payload_error` when the output could not be serialised.
 */
export const falWebhookBodySchema = z.object({
  request_id: z.string().min(1),
  gateway_request_id: z.string().nullish(),
  status: z.enum(["OK", "ERROR"]),
  error: z.string().nullish(),
  payload: z.unknown().optional(),
  payload_error: z.string().nullish(),
});
export type FalWebhookBody = z.infer<typeof falWebhookBodySchema>;

/** fal's event: the neutral one, plus fal's id of the last internal attempt (usually the request's). */
export type FalWebhookEvent = ProviderWebhookEvent & { gatewayRequestId: string | null };

/** Parses a verified webhook body; 400 `invalid_json` / `invalid_body` when it is not the shape. */
export function parseFalWebhook(provider: ProviderName, raw: string | Uint8Array): FalWebhookEvent {
  let json: unknown;
  try {
    json = JSON.parse(typeof raw === "string" ? raw : Buffer.from(raw).toString("utf8"));
  } catch {
    throw new DomainError("invalid_json", "Webhook body is not valid JSON");
  }
  const parsed = falWebhookBodySchema.safeParse(json);
  if (!parsed.success) throw validationError("invalid_body", parsed.error);
  const body = parsed.data;
  return {
    provider,
    providerRequestId: body.request_id,
    gatewayRequestId: body.gateway_request_id ?? null,
    outcome: outcomeOf(provider, body),
    body,
  };
}

function outcomeOf(provider: ProviderName, body: FalWebhookBody): ProviderWebhookOutcome {
  if (body.status === "OK") {
    if (body.payload && typeof body.payload === "object" && !Array.isArray(body.payload)) {
      return { kind: "completed", output: body.payload as Record<string, unknown> };
    }
    return { kind: "fetch_result", reason: body.payload_error ?? "the webhook carried no output" };
  }
  // fal: `error: "Invalid status code: 422"`, `payload: {detail: [...]}` (or the error body as is).
  const status = Number(/(\d{3})/.exec(body.error ?? "")?.[1] ?? NaN);
  const payload = body.payload as { detail?: unknown; error_type?: unknown } | null | undefined;
  const detail = payload && typeof payload === "object" && "detail" in payload ? payload.detail : (payload ?? null);
  const errorType = payload && typeof payload === "object" && typeof payload.error_type === "string" ? payload.error_type : null;
  // A timed-out request may never have started (its start deadline): only the result's headers tell, so fetch it.
  if (status === 504 && errorType === "request_timeout") return { kind: "fetch_result", reason: "fal timed the request out" };
  const message = describeDetail(detail) ?? body.error ?? "the model failed";
  return {
    kind: "failed",
    error: new ModelFailedError(provider, "webhook", message, { status: Number.isNaN(status) ? null : status, detail, errorType }),
  };
}
