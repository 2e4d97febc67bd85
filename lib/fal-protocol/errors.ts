import { json } from "@/lib/http/json";
import type { RouteHandler } from "@/lib/http/handler";
import type { Issue } from "@/lib/core/errors";
import { detailOf, REQUEST_ID_HEADER } from "./render";

/**
 * Errors on the fal surface: the gateway's envelope (`{success: false, error, message, …}`, as
 * withGateway renders every DomainError) with fal's fields added, so both kinds of client read them:
 * `detail` (what fal's SDKs show; `[{loc, msg, type}]` with 422 for invalid input, as fal's
 * ValidationError expects) and `error_type` (also in X-Fal-Error-Type, which Python's client reads).
 * A job's id, when the error has one, is in x-fal-request-id too.
 */
type Envelope = {
  success?: false;
  error?: string;
  message?: string;
  issues?: Issue[];
  detail?: unknown;
  error_type?: string;
  request_id?: string;
  [field: string]: unknown;
};

export function falBodyOf(status: number, envelope: Envelope): { status: number; body: Envelope } {
  const body: Envelope = { ...envelope };
  let answer = status;
  if (body.detail === undefined) {
    const where = body.error === "invalid_body" ? "body" : body.error === "invalid_query" ? "query" : null;
    if (where && Array.isArray(body.issues) && body.issues.length) {
      body.detail = detailOf(body.issues, where);
      answer = 422;
    } else {
      body.detail = body.message ?? "Error";
    }
  }
  body.error_type ??= body.error ?? "error";
  return { status: answer, body };
}

/** Wraps a route handler: its error answers are rewritten into the fal-compatible envelope. */
export function withFalErrors(handler: RouteHandler): RouteHandler {
  return async (req, context) => {
    const res = await handler(req, context);
    if (res.status < 400 || !(res.headers.get("content-type") ?? "").includes("json")) return res;
    let envelope: Envelope;
    try {
      envelope = (await res.clone().json()) as Envelope;
    } catch {
      return res;
    }
    if (!envelope || typeof envelope !== "object" || envelope.success !== false) return res;
    const { status, body } = falBodyOf(res.status, envelope);
    const headers = new Headers(res.headers);
    headers.delete("content-length");
    headers.set("X-Fal-Error-Type", String(body.error_type));
    if (typeof body.request_id === "string") headers.set(REQUEST_ID_HEADER, body.request_id);
    return json(body, { status, headers });
  };
}
