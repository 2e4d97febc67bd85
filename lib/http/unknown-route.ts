import { DomainError, notFound } from "@/lib/core/errors";
import { withoutOperation, type OperationHandler, type RouteHandler } from "./handler";
import type { Surface } from "./render";

/**
 * Catch-alls under the API prefixes (`/me/[...unknown]`, `/api/v1/[...unknown]`, …) re-export
 * these, so a mistyped API path answers the JSON envelope with X-Request-ID instead of the HTML
 * 404 page. (The proxy skips API paths: it would cost every API request a second pass.)
 */
function handlers(surface: Surface) {
  const handler = withoutOperation(surface, () => {
    throw notFound("Endpoint");
  });
  return { GET: handler, POST: handler, PUT: handler, PATCH: handler, DELETE: handler };
}

export const gatewayUnknownRoute = handlers("gateway");
export const skillUnknownRoute = handlers("skill");

type Method = "GET" | "HEAD" | "POST" | "PUT" | "PATCH" | "DELETE";
const METHODS: Method[] = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE"];

/** A handler answering 405 (or OPTIONS 204) with `allow`: the structural test compares it with the route's methods. */
export type RefusingHandler = RouteHandler & { readonly allow: string };

/**
 * The methods a route does not serve, answered 405 method_not_allowed with `Allow`, in the
 * envelope with X-Request-ID (Next's own 405 has neither body nor request id); OPTIONS 204 with
 * `Allow`. The allowed methods are the ones the route exports, in the order given (the message
 * lists them): `export const { PUT, PATCH, DELETE, OPTIONS } = otherMethodsOf({ GET, POST });`
 */
export function otherMethodsOf(served: Partial<Record<Method, OperationHandler>>): Record<Method | "OPTIONS", RefusingHandler> {
  const entries = Object.entries(served) as [Method, OperationHandler][];
  for (const [method, handler] of entries) {
    const wrong = handler.operations.find((op) => op.method !== (method === "HEAD" ? "get" : method.toLowerCase()));
    if (wrong) throw new Error(`${method} serves ${wrong.operationId}, a ${wrong.method.toUpperCase()} operation`);
  }
  const operations = entries.flatMap(([, handler]) => handler.operations);
  return refusals(
    operations[0]?.surface ?? "gateway",
    entries.map(([method]) => method),
  );
}

function refusals(surface: Surface, allowed: Method[]): Record<Method | "OPTIONS", RefusingHandler> {
  const allow = [...new Set([...allowed, ...(allowed.includes("GET") ? ["HEAD"] : []), "OPTIONS"])].sort().join(", ");
  const handler = withoutOperation(surface, ({ req }) => {
    throw new DomainError("method_not_allowed", `${req.method} is not accepted here; use ${allowed.join(" or ")}`, {}, { Allow: allow });
  });
  // A plain OPTIONS (a CORS preflight is answered by proxy.ts before it gets here).
  const options = withoutOperation(surface, () => new Response(null, { status: 204, headers: { Allow: allow } }));
  const refusing = Object.assign(handler, { allow });
  return {
    ...(Object.fromEntries(METHODS.map((method) => [method, refusing])) as Record<Method, RefusingHandler>),
    OPTIONS: Object.assign(options, { allow }),
  };
}
