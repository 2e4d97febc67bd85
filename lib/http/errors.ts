import type { DomainError, ErrorCode } from "@/lib/core/errors";

/**
 * The HTTP face of the domain's errors (lib/core/errors.ts): each code's status on the gateway surface
 * (the spec's "Errors" section) and the skill surface's coarser code. Only lib/http renders them.
 */
export const gatewayErrors = {
  invalid_body: 400,
  invalid_query: 400,
  invalid_params: 400,
  invalid_json: 400,
  minimum_topup: 400,
  unauthorized: 401,
  invalid_signature: 401,
  insufficient_balance: 402,
  forbidden: 403,
  not_found: 404,
  unknown_model: 404,
  method_not_allowed: 405,
  conflict: 409,
  asset_too_large: 413,
  payload_too_large: 413,
  unsupported_media_type: 415,
  idempotency_key_reused: 422,
  rate_limited: 429,
  key_limit_exceeded: 429,
  internal_error: 500,
  generation_failed: 500,
  provider_error: 502,
  payment_provider: 502,
  asset_storage_disabled: 503,
  /** File storage failing at run time (unreachable, refusing the credentials, full); Retry-After. */
  storage_unavailable: 503,
  timeout: 504,
} as const satisfies Record<ErrorCode, number>;

export const skillCodes = [
  "UNAUTHORIZED",
  "INSUFFICIENT_BALANCE",
  "RATE_LIMITED",
  "NOT_FOUND",
  "INVALID_PARAMS",
  "PROVIDER_ERROR",
] as const;
export type SkillCode = (typeof skillCodes)[number];

/** The skill surface's code enum is closed, so each gateway code folds into one of its six. */
export const skillCodeOf: Record<ErrorCode, SkillCode> = {
  invalid_body: "INVALID_PARAMS",
  invalid_query: "INVALID_PARAMS",
  invalid_params: "INVALID_PARAMS",
  invalid_json: "INVALID_PARAMS",
  minimum_topup: "INVALID_PARAMS",
  unauthorized: "UNAUTHORIZED",
  invalid_signature: "UNAUTHORIZED",
  insufficient_balance: "INSUFFICIENT_BALANCE",
  forbidden: "UNAUTHORIZED",
  not_found: "NOT_FOUND",
  unknown_model: "NOT_FOUND",
  method_not_allowed: "INVALID_PARAMS",
  conflict: "INVALID_PARAMS",
  asset_too_large: "INVALID_PARAMS",
  payload_too_large: "INVALID_PARAMS",
  unsupported_media_type: "INVALID_PARAMS",
  idempotency_key_reused: "INVALID_PARAMS",
  rate_limited: "RATE_LIMITED",
  key_limit_exceeded: "RATE_LIMITED",
  internal_error: "PROVIDER_ERROR",
  generation_failed: "PROVIDER_ERROR",
  provider_error: "PROVIDER_ERROR",
  payment_provider: "PROVIDER_ERROR",
  asset_storage_disabled: "PROVIDER_ERROR",
  storage_unavailable: "PROVIDER_ERROR",
  timeout: "PROVIDER_ERROR",
};

/** The status an error answers with: the table's, unless the error names its own. */
export const httpStatusOf = (err: DomainError): number => err.httpStatus ?? gatewayErrors[err.code];
