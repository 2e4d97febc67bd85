import { brand } from "@/lib/core/brand";
import { DomainError } from "@/lib/core/errors";
import type { ProviderName } from "./types";

/**
 * Typed provider failures, so the engine can act without reading messages:
 * - `ProviderUnavailableError` — retryable (network, timeout, 429, 5xx). Retry with backoff,
 *   honouring `retryAfterMs`; once retries are exhausted answer 502 `provider_error` and refund.
 * - `CircuitOpenError` — the provider's breaker is open: answer 503 `provider_error` with
 *   `Retry-After`, charge nothing.
 * - `ModelFailedError` — the model (or the provider running it) failed the job for good, e.g. a
 *   422 with `detail`: answer `generation_failed` and refund. Not thrown by `result()`, returned.
 * - `ProviderRejectedError` — the provider refused us (credentials, unknown endpoint or request,
 *   a malformed answer): not retryable; answer 502 `provider_error` and refund.
 *
 * Providers live on `globalThis`, so their errors cross server bundles: tell them apart with the
 * guards below (`isProviderUnavailable(err)`, …), never with `instanceof` (see lib/core/brand.ts).
 */
export type ProviderOperation = "submit" | "status" | "result" | "cancel" | "schema" | "models" | "webhook";

/** Which of the classes below an error is; `circuit_open` is also `unavailable` to the guards. */
export type ProviderErrorKind = "unavailable" | "circuit_open" | "model_failed" | "rejected";

export abstract class ProviderError extends Error {
  abstract readonly retryable: boolean;
  abstract readonly kind: ProviderErrorKind;
  constructor(
    readonly provider: ProviderName,
    readonly operation: ProviderOperation,
    message: string,
    /** HTTP status the provider answered with, when it answered. */
    readonly status: number | null = null,
  ) {
    super(message);
  }
}

export class ProviderUnavailableError extends ProviderError {
  readonly retryable = true;
  readonly kind: "unavailable" | "circuit_open" = "unavailable";
  constructor(
    provider: ProviderName,
    operation: ProviderOperation,
    message: string,
    options: {
      status?: number | null;
      /** The provider's hint (Retry-After / x-ratelimit-reset), in milliseconds. */
      retryAfterMs?: number | null;
      /**
       * Only for submit: the request may have reached the provider before the connection failed
       * (reset or timeout after sending), so submitting again could run the job twice.
       */
      maybeAccepted?: boolean;
      /**
       * `network`, `timeout`, `rate_limited`, `server_error`, `not_ready`, `circuit_open`, or
       * `start_deadline`: the job did not start before its `startDeadlineMs` and was dropped unstarted.
       */
      reason?: string;
      cause?: unknown;
    } = {},
  ) {
    super(provider, operation, message, options.status ?? null);
    this.name = "ProviderUnavailableError";
    this.retryAfterMs = options.retryAfterMs ?? null;
    this.maybeAccepted = options.maybeAccepted ?? false;
    this.reason = options.reason ?? "server_error";
    if (options.cause !== undefined) this.cause = options.cause;
  }
  readonly retryAfterMs: number | null;
  readonly maybeAccepted: boolean;
  readonly reason: string;
}

export class CircuitOpenError extends ProviderUnavailableError {
  constructor(provider: ProviderName, operation: ProviderOperation, retryAfterMs: number) {
    super(provider, operation, `The ${provider} provider is failing; calls are paused`, {
      retryAfterMs,
      reason: "circuit_open",
    });
    this.name = "CircuitOpenError";
  }
  override readonly kind = "circuit_open" as const;
}

/**
 * The `errorType` of a job stopped at its provider by a cancel (ours or the operator's): the engine
 * ends it `cancelled`, not failed. fal's own word for it; the other providers use it too.
 */
export const CANCELLED_ERROR_TYPE = "request_cancelled";

/** One entry of fal's validation `detail` array. */
export type ModelErrorDetail = { loc?: (string | number)[]; msg?: string; type?: string; [k: string]: unknown };

export class ModelFailedError extends ProviderError {
  readonly retryable = false;
  readonly kind = "model_failed" as const;
  constructor(
    provider: ProviderName,
    operation: ProviderOperation,
    message: string,
    options: {
      status?: number | null;
      /** The model's `detail` as it sent it: an array of `{loc, msg, type}` or a string. */
      detail?: unknown;
      /** fal's `error_type` / X-Fal-Error-Type, or the first detail's `type`. */
      errorType?: string | null;
    } = {},
  ) {
    super(provider, operation, message, options.status ?? null);
    this.name = "ModelFailedError";
    this.detail = options.detail ?? null;
    this.errorType = options.errorType ?? firstDetailType(options.detail) ?? null;
  }
  readonly detail: unknown;
  readonly errorType: string | null;
}

export class ProviderRejectedError extends ProviderError {
  readonly retryable = false;
  readonly kind = "rejected" as const;
  constructor(
    provider: ProviderName,
    operation: ProviderOperation,
    message: string,
    options: { status?: number | null; reason?: string; cause?: unknown } = {},
  ) {
    super(provider, operation, message, options.status ?? null);
    this.name = "ProviderRejectedError";
    this.reason = options.reason ?? "rejected";
    if (options.cause !== undefined) this.cause = options.cause;
  }
  /** `unauthorized`, `not_found`, `bad_response`, `rejected`. */
  readonly reason: string;
}

const providerErrors = brand<ProviderError>("provider-error");
providerErrors.mark(ProviderError);

export const isProviderError = providerErrors.is;
/** Retryable: network, timeout, 429, 5xx, not ready yet — and an open circuit. */
export const isProviderUnavailable = (err: unknown): err is ProviderUnavailableError =>
  isProviderError(err) && (err.kind === "unavailable" || err.kind === "circuit_open");
export const isCircuitOpen = (err: unknown): err is CircuitOpenError => isProviderError(err) && err.kind === "circuit_open";
export const isModelFailed = (err: unknown): err is ModelFailedError => isProviderError(err) && err.kind === "model_failed";
export const isProviderRejected = (err: unknown): err is ProviderRejectedError => isProviderError(err) && err.kind === "rejected";
/** A job stopped at its provider by a cancel: not the model's failure. */
export const isCancelledAtProvider = (err: unknown): boolean => isModelFailed(err) && err.errorType === CANCELLED_ERROR_TYPE;

function firstDetailType(detail: unknown): string | undefined {
  if (!Array.isArray(detail)) return undefined;
  const type = (detail[0] as ModelErrorDetail | undefined)?.type;
  return typeof type === "string" ? type : undefined;
}

/** A one-line human message from fal's `detail` (array of `{loc, msg}` or a string). */
export function describeDetail(detail: unknown): string | null {
  if (typeof detail === "string") return detail;
  if (!Array.isArray(detail)) return null;
  const parts = detail
    .map((d: ModelErrorDetail) => {
      if (!d || typeof d !== "object") return null;
      const loc = Array.isArray(d.loc) ? d.loc.filter((p) => p !== "body").join(".") : "";
      const msg = typeof d.msg === "string" ? d.msg : null;
      return msg ? (loc ? `${loc}: ${msg}` : msg) : null;
    })
    .filter(Boolean);
  return parts.length ? parts.join("; ") : null;
}

const retryAfterHeader = (ms: number | null): Record<string, string> =>
  ms == null ? {} : { "Retry-After": String(Math.max(1, Math.ceil(ms / 1000))) };

/**
 * The API answer for a provider failure (DESIGN.md "Statuses and events"). Non-provider errors
 * are returned unchanged so the caller can rethrow them.
 */
export function providerErrorToDomainError(err: unknown): DomainError | unknown {
  if (isCircuitOpen(err)) {
    return new DomainError(
      "provider_error",
      "The generation provider is temporarily unavailable; retry after the indicated time",
      {},
      retryAfterHeader(err.retryAfterMs ?? 1000),
      503,
    );
  }
  if (isModelFailed(err)) {
    return new DomainError("generation_failed", `Generation failed: ${err.message}`, {
      ...(err.errorType ? { errorType: err.errorType } : {}),
      ...(err.detail != null ? { detail: err.detail } : {}),
    });
  }
  if (isProviderUnavailable(err)) {
    return new DomainError("provider_error", "The generation provider is unavailable; retry later", {}, retryAfterHeader(err.retryAfterMs));
  }
  if (isProviderRejected(err)) {
    return new DomainError("provider_error", "The generation provider refused the request");
  }
  return err;
}
