import type { GenerationRow } from "./types";

/**
 * The completion callback of a job submitted through fal's protocol (`?fal_webhook=`), in fal's
 * body (notes/fal.md §4): `{request_id, gateway_request_id, status: "OK", payload: <output>}`, or
 * `status: "ERROR"` with `error` and fal's `{detail}` as the payload. It is delivered like every
 * callback of the gateway (the payload is the model's output as stored, as `fal.run` answers it): signed per Standard Webhooks with the user's webhook secret
 * (webhook-id / webhook-timestamp / webhook-signature), retried with backoff.
 */
export function falWebhookBody(row: GenerationRow): Record<string, unknown> {
  const base = { request_id: row.id, gateway_request_id: row.id };
  if (row.status === "completed") return { ...base, status: "OK", payload: row.output ?? {} };
  if (row.status === "cancelled")
    return { ...base, status: "ERROR", error: "Request was cancelled", payload: { detail: "Request was cancelled" } };
  const msg = row.errorMessage ?? "The model failed";
  return {
    ...base,
    status: "ERROR",
    error: "Invalid status code: 422",
    payload: { detail: [{ loc: ["body"], msg, type: row.errorCode ?? "generation_failed" }] },
  };
}
