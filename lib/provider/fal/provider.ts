import { env } from "@/lib/core/env";
import { log } from "@/lib/core/logger";
import { canCallBack } from "@/lib/net/reachable";
import {
  CANCELLED_ERROR_TYPE,
  describeDetail,
  ModelFailedError,
  type ProviderOperation,
  ProviderRejectedError,
  ProviderUnavailableError,
} from "../errors";
import { httpConfig, messageOf, parseAnswer, providerFetch, rejection, type HttpConfig, type ProviderResponse } from "../http";
import { FalPlatform } from "./platform";
import { falCancelSchema, falOutputSchema, falStatusSchema, falSubmitSchema } from "./schemas";
import type {
  CancelResult,
  GenerationProvider,
  ListModelsOptions,
  MediaBytes,
  ModelListPage,
  ModelSchema,
  ProviderLog,
  ProviderEndState,
  ProviderLogLevel,
  ProviderRequestRef,
  ProviderResult,
  ProviderStatus,
  StatusOptions,
  SubmitRequest,
  SubmitResult,
} from "../types";

export type FalProviderOptions = Partial<Omit<HttpConfig, "provider" | "authorization">> & {
  key?: string;
  queueUrl?: string;
  apiUrl?: string;
  /** CDN lifetime asked for generated files (the spec: provider links last about a day). */
  mediaLifetimeSeconds?: number;
};

// Namespaced ids (`workflows/owner/app/…`) keep one more leading segment (notes/fal.md §1).
const NAMESPACES = new Set(["workflows", "comfy"]);

/** `owner/app` (or `ns/owner/app`) of an endpoint id: status, result and cancel drop the subpath. */
export function falAppId(endpointId: string): string {
  const normalized = /^\d+-/.test(endpointId) ? endpointId.replace("-", "/") : endpointId;
  const parts = normalized.split("/").filter(Boolean);
  const keep = NAMESPACES.has(parts[0] ?? "") ? 3 : 2;
  if (parts.length < keep)
    throw new ProviderRejectedError("fal", "submit", `Invalid fal endpoint id: ${endpointId}`, { reason: "not_found" });
  return parts.slice(0, keep).join("/");
}

const encodePath = (id: string) => id.split("/").filter(Boolean).map(encodeURIComponent).join("/");
const trimSlash = (url: string) => url.replace(/\/+$/, "");

// fal's runner levels in the engine's words (STDOUT/STDERR are a process's streams, not severities).
const LOG_LEVELS: Partial<Record<string, ProviderLogLevel>> = {
  DEBUG: "debug",
  INFO: "info",
  STDOUT: "info",
  WARN: "warn",
  STDERR: "warn",
  ERROR: "error",
};

/** fal's `error_type` of a request that timed out (its start deadline among them: notes/fal.md §8). */
const REQUEST_TIMEOUT = "request_timeout";

/**
 * fal says only COMPLETED; its error fields tell a failure, and `request_cancelled` a cancel. A
 * `request_timeout` with no run time is read as the start deadline passing (the status call has no
 * `X-Fal-Request-Timeout-Type` to be sure; the result's 504 has, and the engine trusts the result).
 */
function endStateOf(error: string | null, errorType: string | null, inferenceTime: number | null): ProviderEndState {
  if (errorType === CANCELLED_ERROR_TYPE) return "cancelled";
  if (errorType === REQUEST_TIMEOUT && inferenceTime == null) return "expired";
  return error || errorType ? "failed" : "succeeded";
}

/** An ended request's status; an expired one carries the engine's word, as the Replicate client's does. */
function endedStatus(logs: ProviderLog[], error: string | null, errorType: string | null, inferenceTime: number | null): ProviderStatus {
  const status = endStateOf(error, errorType, inferenceTime);
  return {
    status,
    logs,
    inferenceTimeMs: inferenceTime != null ? Math.round(inferenceTime * 1000) : null,
    error,
    errorType: status === "expired" ? "start_deadline" : errorType,
  };
}

/** fal's answer when a request's `X-Fal-Request-Timeout` passed before it started: never retried, never billed. */
const isStartTimeout = (res: ProviderResponse) => res.status === 504 && res.headers.get("x-fal-request-timeout-type") === "user";

/** `X-Fal-Request-Timeout` takes whole seconds here: the deadline rounded up, at least one. */
export const falRequestTimeout = (ms: number) => String(Math.max(1, Math.ceil(ms / 1000)));

/** fal's queue API (queue.fal.run) and Platform API (api.fal.ai/v1, ./platform.ts), over HTTP. */
export class FalProvider implements GenerationProvider {
  readonly name = "fal" as const;
  readonly retriesTransientFailures = true;
  private readonly http: HttpConfig;
  private readonly queueUrl: string;
  private readonly platform: FalPlatform;
  private readonly mediaLifetimeSeconds: number;

  constructor(options: FalProviderOptions = {}) {
    const e = env();
    const key = options.key ?? e.FAL_KEY;
    this.http = httpConfig(
      {
        provider: "fal",
        authorization: key ? `Key ${key}` : undefined,
        timeoutMs: options.timeoutMs ?? e.FAL_TIMEOUT_MS,
        maxRetries: options.maxRetries ?? e.FAL_MAX_RETRIES,
      },
      options,
    );
    this.queueUrl = trimSlash(options.queueUrl ?? e.FAL_QUEUE_URL);
    this.platform = new FalPlatform(this.http, trimSlash(options.apiUrl ?? e.FAL_API_URL));
    this.mediaLifetimeSeconds = options.mediaLifetimeSeconds ?? 86_400;
  }

  callsBackTo(webhookUrl: string): boolean {
    return canCallBack(this.queueUrl, webhookUrl);
  }

  async submit(request: SubmitRequest): Promise<SubmitResult> {
    falAppId(request.endpointId);
    const url = new URL(`${this.queueUrl}/${encodePath(request.endpointId)}`);
    if (request.webhookUrl) url.searchParams.set("fal_webhook", request.webhookUrl);
    const res = await providerFetch(this.http, {
      operation: "submit",
      method: "POST",
      url: url.toString(),
      body: request.input,
      headers: {
        "x-fal-object-lifecycle-preference": JSON.stringify({ expiration_duration_seconds: this.mediaLifetimeSeconds }),
        ...(request.startDeadlineMs !== undefined ? { "x-fal-request-timeout": falRequestTimeout(request.startDeadlineMs) } : {}),
      },
      retry: "submit",
      signal: request.signal,
      maxRetries: request.retries,
    });
    if (res.status >= 300) throw this.submitFailure(res);
    const body = parseAnswer("fal", falSubmitSchema, res, "submit");
    log.debug("fal accepted a request", {
      endpointId: request.endpointId,
      providerRequestId: body.request_id,
      requestId: request.requestId,
    });
    return { providerRequestId: body.request_id, queuePosition: body.queue_position ?? null };
  }

  // fal validates input at submit for some apps: a 4xx with `detail` is the model refusing it.
  private submitFailure(res: ProviderResponse): Error {
    if (res.status === 400 || res.status === 422) return modelFailure("submit", res);
    // The start deadline passed before fal queued it: nothing was accepted, so the engine may move on.
    if (isStartTimeout(res)) return startDeadlineError("submit", res.status);
    return rejection("fal", "submit", res, "Submit refused");
  }

  async status(ref: ProviderRequestRef, options: StatusOptions = {}): Promise<ProviderStatus> {
    const res = await providerFetch(this.http, {
      operation: "status",
      method: "GET",
      url: `${this.requestUrl(ref)}/status?logs=${options.logs ? 1 : 0}`,
      retry: "idempotent",
      signal: options.signal,
    });
    if (res.status >= 300) throw rejection("fal", "status", res, "Status refused");
    const body = parseAnswer("fal", falStatusSchema, res, "status");
    const logs: ProviderLog[] = (body.logs ?? []).map((l) => ({
      message: l.message,
      level: (l.level && LOG_LEVELS[l.level]) || "info",
      timestamp: l.timestamp ?? new Date().toISOString(),
    }));
    switch (body.status) {
      case "IN_QUEUE":
        return { status: "queued", queuePosition: body.queue_position ?? null, logs };
      case "IN_PROGRESS":
        return { status: "running", logs };
      case "COMPLETED":
        return endedStatus(logs, body.error ?? null, body.error_type ?? null, body.metrics?.inference_time ?? null);
      default:
        // fal documents three states. Final-sounding ones are treated as done (the result call
        // then tells what happened); anything else keeps the caller polling, as fal's clients do.
        if (/^(FAILED|ERROR|CANCELL?ED)$/.test(body.status)) {
          const errorType = body.error_type ?? (/^CANCEL/.test(body.status) ? CANCELLED_ERROR_TYPE : null);
          return endedStatus(logs, body.error ?? body.status, errorType, null);
        }
        log.warn("fal reported an unknown status", { status: body.status });
        return { status: "running", logs };
    }
  }

  async result(ref: ProviderRequestRef, options: { signal?: AbortSignal } = {}): Promise<ProviderResult> {
    const res = await providerFetch(this.http, {
      operation: "result",
      method: "GET",
      url: this.requestUrl(ref),
      retry: "idempotent",
      // A failed job answers with the model's own status and body, 5xx included: that is its
      // final outcome, not a hiccup. Only an answer that did not come from the request is retried.
      retryableStatus: (r) => [429, 500, 502, 503, 504].includes(r.status) && !isRequestOutcome(r) && !isStartTimeout(r),
      signal: options.signal,
    });
    if (res.status < 300) return { ok: true, output: parseAnswer("fal", falOutputSchema, res, "result") };
    if (isStartTimeout(res)) return { ok: false, error: startDeadlineError("result", res.status) };
    if (res.status === 401 || res.status === 403 || res.status === 404) throw rejection("fal", "result", res, "Result refused");
    if (res.status === 400 && isNotReady(res.body)) {
      throw new ProviderUnavailableError("fal", "result", "The request has not completed yet", { status: 400, reason: "not_ready" });
    }
    return { ok: false, error: modelFailure("result", res) };
  }

  async cancel(ref: ProviderRequestRef, options: { signal?: AbortSignal } = {}): Promise<CancelResult> {
    const res = await providerFetch(this.http, {
      operation: "cancel",
      method: "PUT",
      url: `${this.requestUrl(ref)}/cancel`,
      retry: "idempotent",
      signal: options.signal,
    });
    const parsed = falCancelSchema.safeParse(res.body);
    const said = parsed.success ? parsed.data.status : undefined;
    if (said === "ALREADY_COMPLETED") return { status: "already_ended" };
    if (said === "NOT_FOUND" || (res.status === 404 && !said)) return { status: "not_found" };
    if (res.status >= 300) throw rejection("fal", "cancel", res, "Cancel refused");
    if (said === "CANCELLATION_REQUESTED") return { status: "cancel_requested" };
    return { status: "cancelled" };
  }

  schema(endpointId: string, options: { signal?: AbortSignal } = {}): Promise<ModelSchema> {
    return this.platform.schema(endpointId, options);
  }

  listModels(options: ListModelsOptions = {}): Promise<ModelListPage> {
    return this.platform.listModels(options);
  }

  private requestUrl(ref: ProviderRequestRef): string {
    return `${this.queueUrl}/${encodePath(falAppId(ref.endpointId))}/requests/${encodeURIComponent(ref.providerRequestId)}`;
  }

  /** fal's media lives on its CDN: re-hosting downloads it (with the outbound URL rules). */
  async fetchMedia(): Promise<MediaBytes | null> {
    return null;
  }
}

/** An answer that carries the request's own outcome (fal's request id or its error fields). */
function isRequestOutcome(res: ProviderResponse): boolean {
  if (res.headers.get("x-fal-request-id") || res.headers.get("x-fal-error-type")) return true;
  const body = res.body as { detail?: unknown; error_type?: unknown } | null;
  return !!body && typeof body === "object" && ("detail" in body || "error_type" in body);
}

// fal does not document the answer for a result fetched too early; it is a 400 saying so.
function isNotReady(body: unknown): boolean {
  const detail = (body as { detail?: unknown } | null)?.detail;
  return typeof detail === "string" && /in progress|in queue|not (yet )?(completed|finished|ready)/i.test(detail);
}

function startDeadlineError(operation: ProviderOperation, status: number): ProviderUnavailableError {
  return new ProviderUnavailableError("fal", operation, "fal did not start the request before its deadline", {
    status,
    reason: "start_deadline",
    maybeAccepted: false,
  });
}

function modelFailure(operation: ProviderOperation, res: ProviderResponse): ModelFailedError {
  const body = res.body as { detail?: unknown; error_type?: unknown } | null;
  const detail = body && typeof body === "object" ? body.detail : undefined;
  const errorType =
    res.headers.get("x-fal-error-type") ??
    (body && typeof body === "object" && typeof body.error_type === "string" ? body.error_type : null);
  const message = describeDetail(detail) ?? (messageOf(body).slice(2, -1) || `model answered ${res.status}`);
  return new ModelFailedError("fal", operation, message, { status: res.status, detail: detail ?? null, errorType });
}
