import type { RouteHandler } from "@/lib/http/handler";

/**
 * Adds the `WWW-Authenticate` challenge (RFC 6750) to a 401, which MCP clients read to learn that
 * the server wants a bearer token: without credentials a bare challenge, with a refused one
 * `error="invalid_token"`. The body stays the skill surface's error envelope.
 */
export function withBearerChallenge(handler: RouteHandler): RouteHandler {
  return async (req, context) => {
    const res = await handler(req, context);
    if (res.status !== 401) return res;
    const challenge = req.headers.has("authorization")
      ? `Bearer realm="mcp", error="invalid_token", error_description="The API key is missing, malformed, unknown, disabled or expired"`
      : `Bearer realm="mcp"`;
    res.headers.set("WWW-Authenticate", challenge);
    return res;
  };
}
