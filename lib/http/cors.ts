import { env } from "@/lib/core/env";

/** Headers browser scripts may read: the request id and the rate-limit headers. */
export const exposedHeaders = [
  "X-Request-ID",
  "Retry-After",
  "X-RateLimit-Limit",
  "X-RateLimit-Remaining",
  "X-RateLimit-Reset",
  // fal's protocol (lib/fal-protocol): the job's id, read by @fal-ai/client as `requestId`.
  "X-Fal-Request-Id",
  // Which provider served a job and what was tried first (lib/generation/present.ts servedByHeaders).
  "X-Gateway-Served-By",
  "X-Gateway-Attempts",
].join(", ");

/**
 * The API authenticates with bearer keys, not cookies, across origins, so the allowed origin is
 * reflected without credentials. Returns nothing when the origin is not allowed.
 */
export function corsHeaders(origin: string | null): Record<string, string> {
  const allowed = env()
    .CORS_ORIGINS.split(",")
    .map((s) => s.trim());
  const allowOrigin = allowed.includes("*") ? "*" : origin && allowed.includes(origin) ? origin : null;
  if (!allowOrigin) return {};
  return {
    "Access-Control-Allow-Origin": allowOrigin,
    "Access-Control-Expose-Headers": exposedHeaders,
    ...(allowOrigin === "*" ? {} : { Vary: "Origin" }),
  };
}

export function preflightHeaders(origin: string | null): Record<string, string> {
  const base = corsHeaders(origin);
  if (!base["Access-Control-Allow-Origin"]) return {};
  return {
    ...base,
    "Access-Control-Allow-Methods": "GET, POST, PUT, PATCH, DELETE, OPTIONS",
    // The Mcp-* headers: what MCP clients in a browser send to /mcp (protocol version, method, tool name).
    // The X-Fal-* headers: what @fal-ai/client sends through /api/fal/proxy (target, queue options).
    "Access-Control-Allow-Headers":
      "Authorization, Content-Type, X-Request-ID, Idempotency-Key, Last-Event-ID, Mcp-Protocol-Version, Mcp-Session-Id, Mcp-Method, Mcp-Name, " +
      "X-Fal-Target-Url, X-Fal-Queue-Priority, X-Fal-Runner-Hint, X-Fal-Request-Timeout, X-Fal-Object-Lifecycle-Preference, X-Fal-Object-Lifecycle",
    "Access-Control-Max-Age": "86400",
  };
}
