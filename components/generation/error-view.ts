/** The gateway error envelope (spec "Errors"), as much of it as the pages use. */
export type ErrorEnvelope = {
  error?: string;
  message?: string;
  issues?: { path?: unknown[]; message?: string }[];
  required?: number;
  available?: number;
  recovery?: { action?: string; url?: string; minAmountRub?: number };
};

export type ErrorView = {
  status: number;
  code: string;
  message: string;
  /** Field name → message, for issues that point at a top-level input field. */
  fieldIssues: Record<string, string>;
  /** Issues with no field (the input as a whole) or nested deeper than the form shows. */
  otherIssues: string[];
  /** 402: where to top up, and the amounts the server quoted, in rubles (the page formats them). */
  topup?: { href: string; requiredRub?: number; availableRub?: number };
  /** 429 / 503: seconds to wait, from Retry-After. */
  retryAfterSec?: number;
  /** When the wait ends (the response's arrival plus Retry-After), ISO, for "try again at …". */
  retryAt?: string;
  /** 429 from a rate limit: requests allowed per window, from X-RateLimit-Limit (the limit the refusal is about). */
  limit?: number;
  /** X-Request-ID of the failed call, to quote to support. */
  supportId?: string;
};

/** The dashboard's Billing page: a signed-in user tops up there, not through the JSON path in `recovery.url`. */
export const TOPUP_PAGE = "/dashboard/billing";

const rub = (value: unknown): number | undefined => (typeof value === "number" && Number.isFinite(value) ? value : undefined);

/** A failed response → what the page shows: the server's words, issues beside fields, a top-up link on 402. */
export function errorViewOf(status: number, body: unknown, headers?: { get(name: string): string | null }): ErrorView {
  const env = (body && typeof body === "object" ? body : {}) as ErrorEnvelope;
  const code = typeof env.error === "string" ? env.error : status >= 500 ? "internal_error" : "error";
  const view: ErrorView = {
    status,
    code,
    message: typeof env.message === "string" && env.message ? env.message : `Request failed (${status})`,
    fieldIssues: {},
    otherIssues: [],
  };
  for (const issue of env.issues ?? []) {
    const path = Array.isArray(issue.path) ? issue.path.map(String) : [];
    const message = issue.message ?? "Invalid value";
    if (path.length >= 1 && !(path[0]! in view.fieldIssues))
      view.fieldIssues[path[0]!] = path.length > 1 ? `${path.slice(1).join(".")}: ${message}` : message;
    else if (path.length === 0) view.otherIssues.push(message);
  }
  if (code === "insufficient_balance") view.topup = { href: TOPUP_PAGE, requiredRub: rub(env.required), availableRub: rub(env.available) };
  const retry = Number(headers?.get("retry-after"));
  if (Number.isFinite(retry) && retry > 0) {
    view.retryAfterSec = Math.ceil(retry);
    view.retryAt = new Date(Date.now() + view.retryAfterSec * 1000).toISOString();
  }
  const limit = Number(headers?.get("x-ratelimit-limit"));
  if (status === 429 && Number.isInteger(limit) && limit > 0) view.limit = limit;
  const supportId = headers?.get("x-request-id");
  if (supportId) view.supportId = supportId;
  return view;
}
