import { brand } from "@/lib/brand";

/**
 * Every error the API can answer with: one table of stable codes and their HTTP statuses (the
 * spec's "Errors" section), plus the skill surface's coarser codes. Domain code throws `ApiError`;
 * only lib/http renders it.
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
} as const;

export type ErrorCode = keyof typeof gatewayErrors;
export const errorCodes = Object.keys(gatewayErrors) as ErrorCode[];

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

export type Issue = { path: string[]; message: string };

/** Optional fields of the gateway envelope (and anything an error adds, e.g. a timeout's requestId). */
export type ErrorExtra = {
  issues?: Issue[];
  required?: number;
  available?: number;
  recovery?: { action: string; url: string; minAmountRub?: number };
  docs?: string;
  [field: string]: unknown;
};

export class ApiError extends Error {
  readonly status: number;

  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly extra: ErrorExtra = {},
    /** Response headers the error needs, e.g. Retry-After. */
    readonly headers: Record<string, string> = {},
    /** Overrides the table, for the one code that has two statuses (503 provider_error). */
    status?: number,
  ) {
    super(message);
    this.name = "ApiError";
    this.status = status ?? gatewayErrors[code];
  }
}

const apiErrors = brand<ApiError>("api-error");
apiErrors.mark(ApiError);
/** Domain code throws ApiError from any server chunk: check it with this, never `instanceof` (lib/brand.ts). */
export const isApiError = apiErrors.is;

export const notFound = (what = "Resource") => new ApiError("not_found", `${what} not found`);
export const invalidJson = () => new ApiError("invalid_json", "Request body is not valid JSON");
