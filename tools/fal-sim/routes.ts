import type { IncomingHttpHeaders } from "node:http";
import { appIdOf } from "./platform";
import type { FalSubmission, Route, Scripted } from "./protocol-types";

/**
 * Which of fal's routes a request is, by method and path (notes/fal.md §1): the queue API under
 * `queuePrefix`, the Platform API under `/v1`, the JWKS; anything else is the subclass's.
 */
export function routeOf(method: string, path: string, queuePrefix: string): Route | "unknown" {
  if (path === "/.well-known/jwks.json") return "jwks";
  if (path === "/v1/models" && method === "GET") return "models";
  if (path === "/v1/models/pricing" && method === "GET") return "pricing";
  if (!path.startsWith(`${queuePrefix}/`)) return "unknown";
  if (/\/requests\/[^/]+\/status$/.test(path) && method === "GET") return "status";
  if (/\/requests\/[^/]+\/status\/stream$/.test(path) && method === "GET") return "stream";
  if (/\/requests\/[^/]+\/cancel$/.test(path) && method === "PUT") return "cancel";
  if (/\/requests\/[^/]+$/.test(path) && method === "GET") return "result";
  if (!path.includes("/requests/") && method === "POST") return "submit";
  return "unknown";
}

/** Reads a submit: the submission, or fal's answer to a body, path or header it cannot take. */
export function parseSubmission(url: URL, body: string, queuePrefix: string, headers: IncomingHttpHeaders = {}): FalSubmission | Scripted {
  const endpointId = url.pathname
    .slice(queuePrefix.length + 1)
    .split("/")
    .filter(Boolean)
    .map(decodeURIComponent)
    .join("/");
  let input: unknown;
  try {
    input = body ? JSON.parse(body) : {};
  } catch {
    return { status: 422, body: { detail: [{ loc: ["body"], msg: "Invalid JSON", type: "json_invalid" }] } };
  }
  if (!input || typeof input !== "object" || Array.isArray(input)) {
    return { status: 422, body: { detail: [{ loc: ["body"], msg: "Input should be a valid dictionary", type: "dict_type" }] } };
  }
  if (endpointId.split("/").length < 2) return { status: 404, body: { detail: "Application not found" } };
  const timeout = requestTimeoutMsOf(headers["x-fal-request-timeout"]);
  if (timeout === "invalid") {
    // fal's request errors name an invalid timeout header as a `bad_request` (400).
    return {
      status: 400,
      body: { detail: "Invalid X-Fal-Request-Timeout header", error_type: "bad_request" },
      headers: { "x-fal-error-type": "bad_request" },
    };
  }
  return {
    endpointId,
    appId: appIdOf(endpointId),
    input: input as Record<string, unknown>,
    body,
    webhookUrl: url.searchParams.get("fal_webhook"),
    requestTimeoutMs: timeout,
  };
}

/** `X-Fal-Request-Timeout: <seconds>` (fractions allowed) in milliseconds; null when absent. */
function requestTimeoutMsOf(raw: string | string[] | undefined): number | null | "invalid" {
  const value = Array.isArray(raw) ? raw[0] : raw;
  if (value === undefined) return null;
  const seconds = Number(value.trim());
  return value.trim() !== "" && Number.isFinite(seconds) && seconds > 0 ? Math.round(seconds * 1000) : "invalid";
}

/** The `owner/app` and request id of a status, stream, result or cancel path. */
export function requestPathOf(path: string, queuePrefix: string): { appId: string; requestId: string } {
  const m = new RegExp(`^${queuePrefix}/(.+)/requests/([^/]+)`).exec(path)!;
  return { appId: m[1]!.split("/").map(decodeURIComponent).join("/"), requestId: decodeURIComponent(m[2]!) };
}
