import { DomainError, type Issue } from "@/lib/core/errors";
import type { GenerationRow } from "@/lib/generation";

/**
 * fal's wire format for a job (docs/fal.md, notes/fal.md §2): statuses IN_QUEUE / IN_PROGRESS /
 * COMPLETED (a failed or cancelled job is COMPLETED with `error`/`error_type`, as fal reports
 * it), 202 while pending and 200 once done, the request id in `x-fal-request-id`, the result as
 * the model's output alone, and errors with fal's `detail` (422 with `[{loc, msg, type}]` for
 * input and model failures).
 */
export const REQUEST_ID_HEADER = "x-fal-request-id";

/** The namespaces that add one leading segment to a fal id (`workflows/owner/app/…`). */
const NAMESPACES = new Set(["workflows", "comfy"]);

/** `owner/app` (with its namespace): the part of a model id fal's status/result/cancel URLs keep. */
export function appIdOf(modelId: string): string {
  const parts = modelId.split("/");
  return parts.slice(0, NAMESPACES.has(parts[0]!) ? 3 : 2).join("/");
}

/**
 * A job's fal URLs under `queueBase`: `https://queue.fal.run` through the proxy (the client sends
 * them back through it), `{APP_URL}/fal/queue` under the path prefix (Python's fal_client follows
 * them as they are).
 */
export function falUrls(queueBase: string, row: Pick<GenerationRow, "id" | "modelId">) {
  const base = `${queueBase}/${appIdOf(row.modelId)}/requests/${row.id}`;
  return { response_url: base, status_url: `${base}/status`, cancel_url: `${base}/cancel` };
}

export type FalLog = { message: string; level: "INFO"; source: "USER"; timestamp: string };

export const falLogs = (logs: { message: string; timestamp: string }[]): FalLog[] =>
  logs.map((l) => ({ message: l.message, level: "INFO", source: "USER", timestamp: l.timestamp }));

const isPending = (row: Pick<GenerationRow, "status">) => row.status === "queued" || row.status === "in_progress";

/** What a finished job that did not complete reports in `error`/`error_type`. */
function endingError(row: GenerationRow): { error: string; error_type: string } | null {
  if (row.status === "failed") return { error: row.errorMessage ?? "The model failed", error_type: row.errorCode ?? "generation_failed" };
  if (row.status === "cancelled") return { error: "Request was cancelled", error_type: "cancelled" };
  return null;
}

/** Seconds between the provider starting and the job ending, as fal's `metrics.inference_time`. */
function inferenceTime(row: GenerationRow): number | null {
  if (!row.completedAt) return null;
  const from = row.startedAt ?? row.submittedAt;
  return from ? Math.max(0, row.completedAt.getTime() - from.getTime()) / 1000 : null;
}

/** A status body; `logs` is null unless asked for (`logs=1`), as fal answers. */
export function falStatus(row: GenerationRow, queueBase: string, logs: FalLog[] | null) {
  const common = { request_id: row.id, ...falUrls(queueBase, row) };
  if (row.status === "queued") return { status: "IN_QUEUE" as const, ...common, queue_position: row.queuePosition ?? 0 };
  if (row.status === "in_progress") return { status: "IN_PROGRESS" as const, ...common, logs };
  return { status: "COMPLETED" as const, ...common, logs, metrics: { inference_time: inferenceTime(row) }, ...endingError(row) };
}

export const falStatusCode = (row: Pick<GenerationRow, "status">) => (isPending(row) ? 202 : 200);

/** The submit answer: IN_QUEUE with the position and the three URLs (plus `gateway_request_id`, as fal sends it). */
export function falSubmitted(row: GenerationRow, queueBase: string) {
  return {
    status: "IN_QUEUE" as const,
    request_id: row.id,
    gateway_request_id: row.id,
    ...falUrls(queueBase, row),
    queue_position: row.queuePosition ?? 0,
  };
}

/** The model's output, as fal answers `fal.run` and a queue result (the id travels in x-fal-request-id). */
export function falOutput(row: GenerationRow): Record<string, unknown> {
  return row.output ?? {};
}

/** fal's validation `detail` entries for our issues (`loc` starts with where the value came from). */
export function detailOf(issues: Issue[], where: "body" | "query"): { loc: string[]; msg: string; type: string }[] {
  return issues.map((i) => ({ loc: [where, ...i.path], msg: i.message, type: "value_error" }));
}

/**
 * A job that did not complete, as its result answers: fal's 422 with `detail` for a failed job
 * (the model's message; `type` is the gateway's code), 400 for a cancelled one.
 */
export function endedError(row: GenerationRow): DomainError {
  const ids = { request_id: row.id, requestId: row.id };
  if (row.status === "cancelled") {
    return new DomainError(
      "conflict",
      "Request was cancelled",
      { ...ids, detail: "Request was cancelled", error_type: "cancelled" },
      {},
      400,
    );
  }
  const type = row.errorCode ?? "generation_failed";
  const msg = row.errorMessage ?? "The model failed";
  return new DomainError(
    "generation_failed",
    `Generation failed: ${msg}; the charge was refunded`,
    { ...ids, detail: [{ loc: ["body"], msg, type }], error_type: type },
    {},
    422,
  );
}

/** A result asked for before the job ended: 400 with fal's detail (its clients then keep polling status). */
export function notReadyError(row: GenerationRow): DomainError {
  return new DomainError(
    "conflict",
    "Request is still in progress",
    { request_id: row.id, requestId: row.id, detail: "Request is still in progress", error_type: "request_in_progress" },
    {},
    400,
  );
}
