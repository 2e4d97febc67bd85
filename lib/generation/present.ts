import { env } from "@/lib/core/env";
import { DomainError, errorCodes, type ErrorCode } from "@/lib/core/errors";
import { creditsToRub } from "@/lib/pricing/credits";
import type { GenerationRow } from "./types";

/**
 * The shapes a job is shown in. Gateway: the model's result plus `request_id` (fal's shape); a
 * status body `{status, request_id, queue_position?, logs?}`. Skill: GenerationResult.
 */
const origin = () => env().APP_URL.replace(/\/$/, "");

/** fal's status/result/cancel URLs drop the model's subpath; ours keep the full model id. */
export function queueUrls(row: Pick<GenerationRow, "id" | "modelId">) {
  const base = `${origin()}/queue/${row.modelId}/requests/${row.id}`;
  return { response_url: base, status_url: `${base}/status`, cancel_url: `${base}/cancel` };
}

export function skillUrls(id: string) {
  const base = `${origin()}/api/v1/requests/${id}`;
  return { poll_url: base, stream_url: `${base}/stream` };
}

/** One provider a job went to, and how it went there; the last is the one serving (or that served). */
export type ServedAttempt = { provider: string; outcome: string; reason?: string };

/**
 * Who serves the job and what was tried first (docs/providers.md): the providers left before the
 * job started there (`refused`, `not_started`, `skipped`, with the reason), then the one carrying
 * it: `served` once completed, `failed` or `cancelled` as the job ended, else `accepted` (it holds
 * the job) or `pending` (not submitted yet).
 */
export function servedBy(row: Pick<GenerationRow, "provider" | "attempts" | "status" | "providerRequestId">): {
  provider: string;
  attempts: ServedAttempt[];
} {
  const last =
    row.status === "completed"
      ? "served"
      : row.status === "failed" || row.status === "cancelled"
        ? row.status
        : row.providerRequestId
          ? "accepted"
          : "pending";
  return {
    provider: row.provider,
    attempts: [
      ...row.attempts.map(({ provider, outcome, reason }) => ({ provider, outcome, reason })),
      { provider: row.provider, outcome: last },
    ],
  };
}

/**
 * The same as response headers, on every answer that carries a job: `X-Gateway-Served-By: replicate`
 * and `X-Gateway-Attempts: fal;outcome=refused;reason=unavailable, replicate;outcome=served` (a
 * Structured Fields list, RFC 8941).
 */
export function servedByHeaders(row: Parameters<typeof servedBy>[0]): Record<string, string> {
  const { provider, attempts } = servedBy(row);
  const item = (a: ServedAttempt) => `${a.provider};outcome=${a.outcome}${a.reason ? `;reason=${sfToken(a.reason)}` : ""}`;
  return { "X-Gateway-Served-By": provider, "X-Gateway-Attempts": attempts.map(item).join(", ") };
}

/** A reason as a Structured Fields token (letters, digits, `_-.:`), else a quoted string. */
const sfToken = (v: string) => (/^[A-Za-z*][A-Za-z0-9_.:*-]*$/.test(v) ? v : JSON.stringify(v.replace(/[^\x20-\x7e]/g, "")));

/** The result as `/run` and `GET /queue/…/requests/{id}` answer it (provider links with passthrough). */
export function gatewayResult(row: GenerationRow, passthrough = false): Record<string, unknown> {
  const output = (passthrough || row.passthrough ? row.providerOutput : row.output) ?? row.output ?? {};
  return { ...output, request_id: row.id, served_by: servedBy(row) };
}

/**
 * `servedBy: false` for a stream's events: each is the job as of that event, and who carried it
 * then is not kept, so a replay would tell it differently; polls and the final answer say it.
 */
export function statusBody(row: GenerationRow, logs?: { message: string; timestamp: string }[], o: { servedBy?: boolean } = {}) {
  return {
    status: row.status,
    request_id: row.id,
    ...(row.status === "queued" && row.queuePosition != null ? { queue_position: row.queuePosition } : {}),
    ...(row.errorCode && row.status !== "completed" ? { error: row.errorCode } : {}),
    ...(logs ? { logs } : {}),
    ...queueUrls(row),
    ...(o.servedBy === false ? {} : { served_by: servedBy(row) }),
  };
}

/** The error a failed job answers with, carrying its ids so a client can look it up. */
export function failureError(row: GenerationRow): DomainError {
  const code: ErrorCode =
    row.errorCode && (errorCodes as readonly string[]).includes(row.errorCode) ? (row.errorCode as ErrorCode) : "generation_failed";
  const message =
    code === "provider_error"
      ? `The generation provider failed: ${row.errorMessage ?? "unavailable"}; the charge was refunded`
      : `Generation failed: ${row.errorMessage ?? "the model failed"}; the charge was refunded`;
  return new DomainError(
    code,
    message,
    { requestId: row.id, request_id: row.id, status: "failed", served_by: servedBy(row) },
    servedByHeaders(row),
  );
}

/**
 * A sync wait that ends before its job does (the wait ran out, or the job was handed to the queue
 * after an unexpected failure): 504 `timeout` carrying the id to follow the job on `/queue`.
 */
export function stillRunningError(id: string, reason: "timeout" | "handed_over" = "timeout"): DomainError {
  const message =
    reason === "timeout"
      ? "The generation did not finish within the sync wait; it goes on: fetch it through /queue with requestId"
      : "The generation could not be finished inline; it goes on in the queue: fetch it through /queue with requestId";
  return new DomainError("timeout", message, { requestId: id, request_id: id, status: "in_progress" });
}

const skillStatus = (row: GenerationRow) => (row.status === "cancelled" ? "failed" : row.status);

/** Skill GenerationResult. */
export function skillResult(row: GenerationRow) {
  const done = row.status === "completed";
  return {
    id: row.id,
    status: skillStatus(row),
    model: row.modelId,
    ...(done ? { output: row.output ?? {} } : {}),
    ...(row.completedAt ? { processing_time_ms: row.completedAt.getTime() - row.createdAt.getTime() } : {}),
    cost_rub: creditsToRub(row.costSettledCredits ?? row.costReservedCredits),
    ...(row.status === "failed" || row.status === "cancelled" ? { error: row.errorMessage ?? row.errorCode ?? "failed" } : {}),
    served_by: servedBy(row),
  };
}

export function skillQueued(row: GenerationRow) {
  return { id: row.id, status: "queued" as const, model: row.modelId, ...skillUrls(row.id) };
}
