import type { SQL } from "drizzle-orm";
import type { z } from "zod";
import type { Operation } from "@/lib/http/contracts/operation";
import { getDb } from "@/db/client";
import { authorize, resolvePrincipal, type AuthMode } from "@/lib/auth/resolve";
import type { Principal } from "@/lib/auth/principal";
import type { OptionalServiceContext, ServiceContext } from "@/lib/auth/context";
import { env } from "@/lib/core/env";
import { log } from "@/lib/core/logger";
import { observeRequest } from "@/lib/http/observe";
import { enforceRateLimits } from "@/lib/rate-limit/enforce";
import { rateLimitHeaders } from "@/lib/rate-limit/headers";
import type { RateLimitRule } from "@/lib/rate-limit/rules";
import { corsHeaders } from "./cors";
import { normalizeError, renderError, type Surface } from "./render";
import { parseWith, queryObject, readJson } from "./request";
import { requestIdOf } from "./request-id";
import { isClientAbort } from "./client-abort";
import { lap, serverTimingOf, startTiming } from "@/lib/observability/server-timing";

/** Parts of a request the contract documents but the handler reads itself (see RouteOptions.raw). */
type Part = "body" | "query" | "params";
/** One operation, or several one handler tells apart by the path (a catch-all route); they share `auth`. */
export type Served = Operation | readonly [Operation, ...Operation[]];
type RawParams = Record<string, string | string[]>;

/**
 * How the route serves its operations, beside the public contract: limits, timing, the carried
 * read, the body cap, and the parts it parses itself. None of it is in /openapi.json, so it is not
 * in the operation.
 */
export type RouteOptions<R extends readonly Part[] = readonly Part[]> = {
  /**
   * Parts the contract documents but the handler reads itself, so the wrapper leaves them as they
   * arrive: a catch-all route's `params` (segments it parses against the template, lib/http/
   * model-path.ts), a signed webhook's `body` (the signature covers the raw bytes), a signed link's
   * `query` (a bad one is 404, not 400). A non-JSON body (`bodyContentType`) is always the handler's.
   */
  raw?: R;
  /** Body cap; default MAX_BODY_BYTES. */
  maxBodyBytes?: number;
  /**
   * Route limits on top of the per-key limit every key-authenticated request gets (e.g.
   * `[userGenerationLimit]`, `[webhookIpLimit]`, `[skillTierLimit]` from lib/rate-limit).
   */
  rateLimit?: readonly RateLimitRule[];
  /**
   * Answer with a `Server-Timing` header of the request's stages (lib/observability/server-timing): auth,
   * ratelimit, parse, whatever the domain code laps on `req`, and respond.
   */
  serverTiming?: boolean;
  /**
   * A read to carry in the statement that counts a key's request, or reads its standing when the
   * key's limit is off (one round trip for both: a status poll's job row), built from the raw path
   * params, the URL and the caller (as its key lookup is remembered: the user is right, the
   * standing is confirmed by that same statement).
   * Its first row reaches the handler as `carried` (JSON; null: no row); `carried` is undefined
   * when nothing carried it (a session caller, no read built): the handler reads for itself.
   */
  carry?: (args: { params: Record<string, string | string[] | undefined>; url: URL; principal: Principal }) => SQL | null;
};

type AuthOf<S extends Served> = (S extends readonly (infer O extends Operation)[] ? O : S) extends { auth: infer A extends AuthMode }
  ? A
  : AuthMode;
/** What the wrapper parsed for part K: the schema's output, or `Fallback` when it does not parse K. */
type Parsed<S extends Served, R extends readonly Part[], K extends Part, Fallback> = S extends readonly unknown[]
  ? Fallback
  : K extends R[number]
    ? Fallback
    : K extends "body" & keyof S
      ? S extends { bodyContentType: string }
        ? Fallback
        : S extends { body: infer Z extends z.ZodType }
          ? z.output<Z>
          : Fallback
      : S extends { [P in K]: infer Z extends z.ZodType }
        ? z.output<Z>
        : Fallback;

/** The domain's context (lib/auth/context.ts); anonymous routes may have no caller. */
export type RequestContext<A extends AuthMode> = A extends "none" | "optional" ? OptionalServiceContext : ServiceContext;

export type HandlerArgs<S extends Served, R extends readonly Part[] = []> = {
  req: Request;
  url: URL;
  ctx: RequestContext<AuthOf<S>>;
  body: Parsed<S, R, "body", undefined>;
  query: Parsed<S, R, "query", Record<string, string>>;
  params: Parsed<S, R, "params", RawParams>;
  /** The row `carry` read (see RouteOptions.carry); undefined when nothing carried it. */
  carried?: Record<string, unknown> | null;
};

/** What Next.js passes as the second argument of a route handler. */
export type RouteContext = { params: Promise<Record<string, string | string[] | undefined>> };

export type RouteHandler = (req: Request, context: RouteContext) => Promise<Response>;

/** A route handler with the operations it serves: the structural test and `otherMethodsOf` read them. */
export type OperationHandler = RouteHandler & { readonly operations: readonly Operation[] };

type Spec = {
  auth: AuthMode;
  body?: z.ZodType;
  query?: z.ZodType;
  params?: z.ZodType;
} & Omit<RouteOptions, "raw">;

/** What the wrapper checks and parses for `served`: all of it from the operation, minus the raw parts. */
function specOf(served: Served, route: RouteOptions = {}): { spec: Spec; operations: readonly Operation[] } {
  const operations: readonly Operation[] = isGroup(served) ? served : [served];
  const auth = operations[0]!.auth;
  const differs = operations.find((op) => op.auth !== auth);
  if (differs) throw new Error(`${differs.operationId} is served with ${operations[0]!.operationId} but its auth differs`);
  const { raw: rawParts = [], ...knobs } = route;
  const raw = new Set<Part>(rawParts);
  const op = isGroup(served) ? undefined : served;
  return {
    operations,
    spec: {
      ...knobs,
      auth,
      body: op && !op.bodyContentType && !raw.has("body") ? op.body : undefined,
      query: op && !raw.has("query") ? op.query : undefined,
      params: op && !raw.has("params") ? op.params : undefined,
    },
  };
}

const isGroup = (served: Served): served is readonly [Operation, ...Operation[]] => Array.isArray(served);

/** The handler function itself: request id, auth, limits, parsing, error rendering, metrics. */
function handle(
  surface: Surface,
  options: Spec,
  handler: (args: HandlerArgs<Served, readonly Part[]>) => Response | Promise<Response>,
): RouteHandler {
  return async (req, context) => {
    const startedAt = performance.now();
    const requestId = requestIdOf(req);
    let response: Response;
    // For the request's metrics and log line (lib/http/observe.ts).
    let rawParams: Record<string, string | string[] | undefined> | undefined;
    let caller: Principal | null = null;
    let limitHeaders: Record<string, string> | undefined;
    if (options.serverTiming) startTiming(req);
    try {
      rawParams = (await context?.params) ?? {};
      const url = new URL(req.url);
      const db = await getDb();
      const mode = options.auth;
      const resolved = mode === "none" ? null : await resolvePrincipal(db, req);
      caller = resolved;
      authorize(mode, resolved);
      lap(req, "auth");
      // The rate limiter's statement also confirms a remembered key lookup (lib/auth/resolve).
      const carry = options.carry && resolved ? options.carry({ params: rawParams, url, principal: resolved }) : null;
      const { limit, principal, carried } = await enforceRateLimits({ db, req, principal: resolved }, options.rateLimit, undefined, carry);
      caller = principal;
      authorize(mode, principal);
      if (limit) limitHeaders = rateLimitHeaders(limit);
      lap(req, "ratelimit");
      const params = options.params ? parseWith(options.params, rawParams, "invalid_params") : rawParams;
      const query = options.query ? parseWith(options.query, queryObject(url), "invalid_query") : queryObject(url);
      const body = options.body
        ? parseWith(options.body, await readJson(req, options.maxBodyBytes ?? env().MAX_BODY_BYTES), "invalid_body")
        : undefined;
      lap(req, "parse");
      const ctx = { requestId, db, principal } as ServiceContext;
      response = await handler({ req, url, ctx, body, query, params, carried } as HandlerArgs<Served, readonly Part[]>);
      lap(req, "respond");
    } catch (err) {
      // A client that hung up (the body stream ended with "aborted") is not a server error;
      // nobody reads this answer, so it is an empty 499 and a debug line.
      if (isClientAbort(err, req)) {
        observeRequest({ req, requestId, status: 499, startedAt, params: rawParams, principal: caller });
        return clientClosed(requestId, err);
      }
      response = renderError(surface, normalizeError(err, requestId), requestId);
    }
    const timing = options.serverTiming ? serverTimingOf(req) : null;
    const answer = finalize(
      response,
      requestId,
      req.headers.get("origin"),
      timing ? { ...limitHeaders, "Server-Timing": timing } : limitHeaders,
    );
    observeRequest({ req, requestId, status: answer.status, startedAt, params: rawParams, principal: caller });
    return answer;
  };
}

function wrap(surface: Surface) {
  function withSurface<const S extends Served, const R extends readonly Part[] = []>(
    served: S,
    handler: (args: HandlerArgs<S, R>) => Response | Promise<Response>,
    route?: RouteOptions<R>,
  ): OperationHandler;
  function withSurface(served: Served, handler: unknown, route?: RouteOptions) {
    const run = handler as (args: HandlerArgs<Served, readonly Part[]>) => Response | Promise<Response>;
    const { spec, operations } = specOf(served, route);
    const wrong = operations.find((op) => op.surface !== surface);
    if (wrong) throw new Error(`${wrong.operationId} is on the ${wrong.surface} surface, not ${surface}`);
    return Object.assign(handle(surface, spec, run), { operations });
  }
  return withSurface;
}

/** Gateway surface: errors in the `{error, message, …}` envelope. `withGateway(keyOperations.createApiKey, handler, route?)`. */
export const withGateway = wrap("gateway");
/** Skill surface (`/api/v1`): errors in the `{error, code, details}` envelope. */
export const withSkill = wrap("skill");

/**
 * A handler that serves no operation of the contract (an unknown path's 404, another method's
 * 405, OPTIONS, fal's refusals): no caller, nothing parsed; the same request id, CORS headers,
 * error envelope and metrics as every route.
 */
export const withoutOperation = (surface: Surface, handler: (args: { req: Request; url: URL }) => Response | Promise<Response>) =>
  handle(surface, { auth: "none" }, handler);

/**
 * Names the operations of a handler the wrapper does not run (it must answer while the database is
 * down, or speaks another protocol: /health, /metrics, /files, /api/inngest), or of one wrapped
 * again after the wrapper (`serving(op, withBearerChallenge(withSkill(op, h)))` would repeat it).
 */
export function serving<H extends (...args: never[]) => Promise<Response>>(
  served: Served,
  handler: H,
): H & { readonly operations: readonly Operation[] } {
  return Object.assign(handler, { operations: isGroup(served) ? served : [served] });
}

/** `decorate` (e.g. withBearerChallenge) around a wrapped handler, which keeps its operations. */
export const decorated = (handler: OperationHandler, decorate: (h: RouteHandler) => RouteHandler): OperationHandler =>
  serving(handler.operations as Served, decorate(handler));

function clientClosed(requestId: string, err: unknown): Response {
  log.debug("client closed the connection before the answer", { requestId, error: err });
  return new Response(null, { status: 499, headers: { "X-Request-ID": requestId } });
}

function finalize(response: Response, requestId: string, origin: string | null, limitHeaders?: Record<string, string>): Response {
  const extra = { "X-Request-ID": requestId, ...corsHeaders(origin), ...limitHeaders };
  try {
    for (const [k, v] of Object.entries(extra)) response.headers.set(k, v);
    return response;
  } catch {
    // Responses built by Response.redirect() have immutable headers: copy them.
    const headers = new Headers(response.headers);
    for (const [k, v] of Object.entries(extra)) headers.set(k, v);
    return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
  }
}
