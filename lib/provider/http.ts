import type { z } from "zod";
import { log } from "@/lib/core/logger";
import { ProviderRejectedError, ProviderUnavailableError, type ProviderOperation } from "./errors";
import type { ProviderName } from "./types";

/**
 * One HTTP exchange with a provider's JSON API, with per-attempt timeouts and bounded retries with
 * backoff (the HTTP providers' shared transport: fal/, replicate/).
 *
 * What is retried by default (fal's and Replicate's own clients do the same, notes/fal.md §7,
 * notes/replicate.md §1): transport errors, 429 and 502/503/504 (plus 500 on idempotent reads),
 * never a 504 that fal marks as the caller's own request timeout. A submit is retried only when the
 * provider cannot have accepted it: a connection that never opened, or an answer that says the
 * request was refused (a provider passes `retryableStatus` to say which answers mean that). A
 * submit that timed out or lost its connection after sending is not retried: it fails with
 * `maybeAccepted`, so nothing can run twice behind our back.
 */
export type HttpConfig = {
  provider: ProviderName;
  /** The `Authorization` header's value (`Key …` for fal, `Bearer …` for Replicate); none when unset. */
  authorization: string | undefined;
  timeoutMs: number;
  maxRetries: number;
  /** First backoff step; doubles per attempt with ±25 % jitter, capped by maxDelayMs. */
  baseDelayMs: number;
  maxDelayMs: number;
  fetch: typeof fetch;
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
};

/** A client's HttpConfig: its own header and limits; backoff, fetch and sleep defaulted alike for every provider. */
export function httpConfig(
  base: Pick<HttpConfig, "provider" | "authorization" | "timeoutMs" | "maxRetries">,
  overrides: Partial<Pick<HttpConfig, "baseDelayMs" | "maxDelayMs" | "fetch" | "sleep">>,
): HttpConfig {
  return {
    ...base,
    baseDelayMs: overrides.baseDelayMs ?? 500,
    maxDelayMs: overrides.maxDelayMs ?? 10_000,
    fetch: overrides.fetch ?? ((...args) => fetch(...args)),
    sleep: overrides.sleep ?? sleep,
  };
}

export type ProviderResponse = { status: number; headers: Headers; body: unknown; text: string };

export type ProviderRequest = {
  operation: ProviderOperation;
  method: "GET" | "POST" | "PUT";
  /** Per-attempt timeout when it differs from the config's (a create held open by `Prefer: wait`). */
  timeoutMs?: number;
  url: string;
  body?: unknown;
  /** A multipart body (file uploads), sent instead of `body`. */
  form?: FormData;
  headers?: Record<string, string>;
  /** `submit`: only provably-unaccepted attempts are retried; `idempotent`: any retryable failure. */
  retry: "submit" | "idempotent";
  /** Extra say on whether a non-2xx answer is worth retrying (default: 429/502/503/504, +500 for reads). */
  retryableStatus?: (res: ProviderResponse) => boolean;
  signal?: AbortSignal;
  /** This call's retries, in place of the client's (a submit the engine can send elsewhere: 0). */
  maxRetries?: number;
};

const RETRYABLE = new Set([429, 502, 503, 504]);

// Errors raised before any byte of the request left: safe to repeat even for a submit.
const CONNECT_ERRORS = new Set(["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN", "EHOSTUNREACH", "ENETUNREACH", "UND_ERR_CONNECT_TIMEOUT"]);

export function defaultRetryableStatus(res: ProviderResponse, retry: ProviderRequest["retry"]): boolean {
  if (res.status === 504 && res.headers.get("x-fal-request-timeout-type") === "user") return false;
  return RETRYABLE.has(res.status) || (retry === "idempotent" && res.status === 500);
}

/** Retry-After (seconds or HTTP date) or x-ratelimit-reset (seconds), in milliseconds. */
export function retryAfterMsOf(headers: Headers, now = Date.now()): number | null {
  const raw = headers.get("retry-after") ?? headers.get("x-ratelimit-reset");
  if (!raw) return null;
  const seconds = Number(raw);
  if (Number.isFinite(seconds) && seconds >= 0) return Math.round(seconds * 1000);
  const date = Date.parse(raw);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}

export function backoffMs(attempt: number, config: Pick<HttpConfig, "baseDelayMs" | "maxDelayMs">): number {
  const exp = Math.min(config.maxDelayMs, config.baseDelayMs * 2 ** attempt);
  return Math.round(exp * (0.75 + Math.random() * 0.5));
}

function errorCode(err: unknown): string | undefined {
  const cause = (err as { cause?: { code?: string; cause?: { code?: string } } })?.cause;
  return cause?.code ?? cause?.cause?.code ?? (err as { code?: string })?.code;
}

export async function providerFetch(config: HttpConfig, req: ProviderRequest): Promise<ProviderResponse> {
  const host = new URL(req.url).host;
  for (let attempt = 0; ; attempt++) {
    const canRetry = attempt < (req.maxRetries ?? config.maxRetries);
    let res: ProviderResponse;
    try {
      res = await once(config, req);
    } catch (err) {
      if (req.signal?.aborted) throw err;
      const timedOut = (err as Error)?.name === "TimeoutError";
      const code = errorCode(err);
      const beforeSending = !timedOut && code !== undefined && CONNECT_ERRORS.has(code);
      const maybeAccepted = req.retry === "submit" && !beforeSending;
      if (canRetry && !maybeAccepted) {
        log.warn("provider call failed, retrying", {
          provider: config.provider,
          operation: req.operation,
          host,
          attempt,
          reason: timedOut ? "timeout" : (code ?? "network"),
        });
        await config.sleep(backoffMs(attempt, config), req.signal);
        continue;
      }
      const who = config.provider;
      throw new ProviderUnavailableError(who, req.operation, timedOut ? `${who} did not answer in time` : `${who} is unreachable`, {
        reason: timedOut ? "timeout" : "network",
        maybeAccepted,
        cause: err,
      });
    }
    if (res.status < 300) return res;
    const retryable = (req.retryableStatus ?? ((r) => defaultRetryableStatus(r, req.retry)))(res);
    if (!retryable) return res;
    const hint = retryAfterMsOf(res.headers);
    // A hint longer than we are willing to block goes back to the engine, which can reschedule.
    if (canRetry && (hint === null || hint <= config.maxDelayMs)) {
      log.warn("provider answered with a retryable status, retrying", {
        provider: config.provider,
        operation: req.operation,
        host,
        attempt,
        status: res.status,
      });
      await config.sleep(Math.max(hint ?? 0, backoffMs(attempt, config)), req.signal);
      continue;
    }
    throw new ProviderUnavailableError(config.provider, req.operation, `${config.provider} answered ${res.status}`, {
      status: res.status,
      retryAfterMs: hint,
      reason: res.status === 429 ? "rate_limited" : "server_error",
    });
  }
}

async function once(config: HttpConfig, req: ProviderRequest): Promise<ProviderResponse> {
  const timeout = AbortSignal.timeout(req.timeoutMs ?? config.timeoutMs);
  const signal = req.signal ? AbortSignal.any([req.signal, timeout]) : timeout;
  const headers: Record<string, string> = { accept: "application/json", ...req.headers };
  if (config.authorization) headers.authorization = config.authorization;
  let body: string | FormData | undefined;
  if (req.form) body = req.form;
  else if (req.body !== undefined) {
    headers["content-type"] = "application/json";
    body = JSON.stringify(req.body);
  }
  try {
    const response = await config.fetch(req.url, { method: req.method, headers, body, signal });
    const text = await response.text();
    return { status: response.status, headers: response.headers, body: parseJson(text), text };
  } catch (err) {
    // AbortSignal.any reports the timeout as an AbortError whose reason is the TimeoutError.
    if (timeout.aborted && !req.signal?.aborted) throw Object.assign(new Error("timeout"), { name: "TimeoutError", cause: err });
    throw err;
  }
}

function parseJson(text: string): unknown {
  if (!text) return null;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** 401/403/404 and other refusals that retrying cannot fix. */
export function rejection(
  provider: ProviderName,
  operation: ProviderOperation,
  res: ProviderResponse,
  what: string,
): ProviderRejectedError {
  const reason = res.status === 401 || res.status === 403 ? "unauthorized" : res.status === 404 ? "not_found" : "rejected";
  return new ProviderRejectedError(provider, operation, `${what}: ${provider} answered ${res.status}${messageOf(res.body)}`, {
    status: res.status,
    reason,
  });
}

export function messageOf(body: unknown): string {
  if (!body || typeof body !== "object") return typeof body === "string" && body ? ` (${body.slice(0, 200)})` : "";
  const b = body as { detail?: unknown; error?: { message?: unknown } | unknown; message?: unknown };
  const m =
    (typeof b.detail === "string" && b.detail) ||
    (typeof b.message === "string" && b.message) ||
    (b.error && typeof b.error === "object" && typeof (b.error as { message?: unknown }).message === "string"
      ? (b.error as { message: string }).message
      : "");
  return m ? ` (${m.slice(0, 200)})` : "";
}

export function badResponse(provider: ProviderName, operation: ProviderOperation, what: string, cause?: unknown): ProviderRejectedError {
  return new ProviderRejectedError(provider, operation, `${provider} sent an unexpected ${what}`, { reason: "bad_response", cause });
}

/** A provider's answer validated against its schema; anything else is a bad response. */
export function parseAnswer<S extends z.ZodType>(
  provider: ProviderName,
  schema: S,
  res: ProviderResponse,
  what: ProviderOperation | string,
): z.output<S> {
  const parsed = schema.safeParse(res.body);
  if (!parsed.success) throw badResponse(provider, what as ProviderOperation, `${what} answer`, parsed.error);
  return parsed.data;
}

export const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      "abort",
      () => {
        clearTimeout(timer);
        reject(signal.reason);
      },
      { once: true },
    );
  });
