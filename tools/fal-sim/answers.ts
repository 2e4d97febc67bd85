import type { FalOutcome, FalPhase, FalQueued, Scripted } from "./protocol-types";

/** fal's answers on the queue API, as bodies and statuses (notes/fal.md §2–§4). */

/** fal's absolute URLs of a request: owner/app only, never the subpath. */
export function requestUrlsOf(queueUrl: string, r: FalQueued) {
  const base = `${queueUrl}/${r.appId}/requests/${r.id}`;
  return { response_url: base, status_url: `${base}/status`, cancel_url: `${base}/cancel` };
}

export function submitBody(queueUrl: string, r: FalQueued, queuePosition: number) {
  return { request_id: r.id, gateway_request_id: r.id, status: "IN_QUEUE", queue_position: queuePosition, ...requestUrlsOf(queueUrl, r) };
}

/** A status poll's body (and each event of its stream); `logs` is null unless asked for. */
export function statusBody(queueUrl: string, r: FalQueued, phase: FalPhase, withLogs: boolean) {
  const common = { request_id: r.id, status: phase.status, ...requestUrlsOf(queueUrl, r) };
  if (phase.status === "IN_QUEUE") return { ...common, queue_position: phase.queuePosition };
  const logs = withLogs ? phase.logs : null;
  if (phase.status === "IN_PROGRESS") return { ...common, logs };
  return {
    ...common,
    logs,
    metrics: { inference_time: phase.inferenceTimeSeconds },
    ...(phase.error ? { error: phase.error, error_type: phase.errorType ?? null } : {}),
  };
}

export function cancelAnswer(said: "OK" | "CANCELLATION_REQUESTED" | "ALREADY_COMPLETED"): Scripted {
  return { status: said === "OK" ? 200 : said === "CANCELLATION_REQUESTED" ? 202 : 400, body: { status: said } };
}

/** The result route's answer; fal marks the request's own answers with `x-fal-request-id`. */
export function resultAnswer(r: FalQueued, outcome: FalOutcome): Scripted {
  const idHeader = { "x-fal-request-id": r.id };
  switch (outcome.kind) {
    case "pending":
      return { status: 400, body: { detail: "Request is still in progress" }, headers: idHeader };
    case "cancelled":
      return { status: 400, body: { detail: "Request was cancelled", error_type: "request_cancelled" }, headers: idHeader };
    case "unavailable":
      return outcome.answer;
    case "error":
      return { status: outcome.status, body: outcome.body, headers: { ...idHeader, ...outcome.headers } };
    case "output":
      return { status: 200, body: outcome.output, headers: idHeader };
  }
}

/** The body fal POSTs to `fal_webhook` for a completed request (notes/fal.md §4). */
export function webhookBodyOf(r: FalQueued, outcome: FalOutcome): Record<string, unknown> {
  const base = { request_id: r.id, gateway_request_id: r.id };
  if (outcome.kind === "output") return { ...base, status: "OK", payload: outcome.output };
  if (outcome.kind === "error") return { ...base, status: "ERROR", error: `Invalid status code: ${outcome.status}`, payload: outcome.body };
  return { ...base, status: "OK", payload: null, payload_error: "The output could not be delivered; fetch the result" };
}
