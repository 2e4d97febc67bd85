import { brand } from "@/lib/core/brand";

/**
 * What went wrong, in the domain's words: every error a verb can throw is a `DomainError` with one
 * of these stable codes (the spec's "Errors" section). The HTTP layer (lib/http/errors.ts) maps each
 * code to its status and to the skill surface's coarser code; nothing here knows about responses.
 */
export const errorCodes = [
  "invalid_body",
  "invalid_query",
  "invalid_params",
  "invalid_json",
  "minimum_topup",
  "unauthorized",
  "invalid_signature",
  "insufficient_balance",
  "forbidden",
  "not_found",
  "unknown_model",
  "method_not_allowed",
  "conflict",
  "asset_too_large",
  "payload_too_large",
  "unsupported_media_type",
  "idempotency_key_reused",
  "rate_limited",
  "key_limit_exceeded",
  "internal_error",
  "generation_failed",
  "provider_error",
  "payment_provider",
  "asset_storage_disabled",
  "storage_unavailable",
  "timeout",
] as const;

export type ErrorCode = (typeof errorCodes)[number];

export type Issue = { path: string[]; message: string };

/** Optional fields of the error envelope (and anything an error adds, e.g. a timeout's requestId). */
export type ErrorExtra = {
  issues?: Issue[];
  required?: number;
  available?: number;
  recovery?: { action: string; url: string; minAmountRub?: number };
  docs?: string;
  [field: string]: unknown;
};

export class DomainError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly extra: ErrorExtra = {},
    /** What the caller needs to retry or redirect, e.g. Retry-After or Allow. */
    readonly headers: Record<string, string> = {},
    /**
     * Set only where one code answers two ways (provider_error when the provider is unavailable: 503;
     * fal's conflicts: 400); otherwise the HTTP layer's table decides.
     */
    readonly httpStatus?: number,
  ) {
    super(message);
    this.name = "DomainError";
  }
}

const domainErrors = brand<DomainError>("domain-error");
domainErrors.mark(DomainError);
/** Errors cross server chunks: check them with this, never `instanceof` (lib/core/brand.ts). */
export const isDomainError = domainErrors.is;

export const notFound = (what = "Resource") => new DomainError("not_found", `${what} not found`);
export const invalidJson = () => new DomainError("invalid_json", "Request body is not valid JSON");
