import { DomainError, notFound } from "@/lib/errors";
import { withGateway, withSkill, type RouteHandler } from "./handler";

/**
 * Catch-alls under the API prefixes (`/me/[...unknown]`, `/api/v1/[...unknown]`, …) re-export
 * these, so a mistyped API path answers the JSON envelope with X-Request-ID instead of the HTML
 * 404 page. (The proxy skips API paths: it would cost every API request a second pass.)
 */
function handlers(wrap: typeof withGateway) {
  const handler = wrap({ auth: "none" }, () => {
    throw notFound("Endpoint");
  });
  return { GET: handler, POST: handler, PUT: handler, PATCH: handler, DELETE: handler };
}

export const gatewayUnknownRoute = handlers(withGateway);
export const skillUnknownRoute = handlers(withSkill);

type Method = "GET" | "HEAD" | "POST" | "PUT" | "PATCH" | "DELETE";
const METHODS: Method[] = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE"];

/**
 * The methods a route does not define, answered 405 method_not_allowed with `Allow`, in the
 * envelope with X-Request-ID (Next's own 405 has neither body nor request id). A route exports
 * the ones it lacks and OPTIONS: `export const { PUT, PATCH, DELETE, OPTIONS } = gatewayOtherMethods("GET", "POST");`
 */
function otherMethods(wrap: typeof withGateway, allowed: Method[]): Record<Method | "OPTIONS", RouteHandler> {
  const allow = [...new Set([...allowed, ...(allowed.includes("GET") ? ["HEAD"] : []), "OPTIONS"])].sort().join(", ");
  const handler = wrap({ auth: "none" }, ({ req }) => {
    throw new DomainError("method_not_allowed", `${req.method} is not accepted here; use ${allowed.join(" or ")}`, {}, { Allow: allow });
  });
  // A plain OPTIONS (a CORS preflight is answered by proxy.ts before it gets here).
  const options = wrap({ auth: "none" }, () => new Response(null, { status: 204, headers: { Allow: allow } }));
  return { ...(Object.fromEntries(METHODS.map((method) => [method, handler])) as Record<Method, RouteHandler>), OPTIONS: options };
}

export const gatewayOtherMethods = (...allowed: Method[]) => otherMethods(withGateway, allowed);
export const skillOtherMethods = (...allowed: Method[]) => otherMethods(withSkill, allowed);
