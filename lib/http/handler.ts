import type { SQL } from "drizzle-orm";
import { z } from "zod";
import { getDb } from "@/db/client";
import { authorize, resolvePrincipal, type AuthMode } from "@/lib/auth/resolve";
import type { Principal } from "@/lib/auth/principal";
import type { OptionalServiceContext, ServiceContext } from "@/lib/context";
import { env } from "@/lib/env";
import { log } from "@/lib/logger";
import { observeRequest } from "@/lib/observability/request";
import { enforceRateLimits } from "@/lib/rate-limit/enforce";
import { rateLimitHeaders } from "@/lib/rate-limit/headers";
import type { RateLimitRule } from "@/lib/rate-limit/rules";
import { corsHeaders } from "./cors";
import { normalizeError, renderError, type Surface } from "./render";
import { parseWith, queryObject, readJson } from "./request";
import { requestIdOf } from "./request-id";
import { isClientAbort } from "./client-abort";
import { lap, serverTimingOf, startTiming } from "./server-timing";

type Schema = z.ZodType | undefined;
type Out<S extends Schema, Fallback> = S extends z.ZodType ? z.output<S> : Fallback;

export type RouteOptions<A extends AuthMode, B extends Schema, Q extends Schema, P extends Schema> = {
  /** Default `key`: an API key or a session. */
  auth?: A;
  /** JSON body schema; failures answer 400 invalid_body with issues. */
  body?: B;
  /** Query schema (values arrive as strings); failures answer 400 invalid_query. */
  query?: Q;
  /** Path params schema; failures answer 400 invalid_params. */
  params?: P;
  /** Body cap; default MAX_BODY_BYTES. */
  maxBodyBytes?: number;
  /**
   * Route limits on top of the per-key limit every key-authenticated request gets (e.g.
   * `[userGenerationLimit]`, `[webhookIpLimit]`, `[skillTierLimit]` from lib/rate-limit).
   */
  rateLimit?: readonly RateLimitRule[];
  /**
   * Answer with a `Server-Timing` header of the request's stages (lib/http/server-timing): auth,
   * ratelimit, parse, whatever the domain code laps on `req`, and respond.
   */
  serverTiming?: boolean;
  /**
   * A read to carry in the statement that counts a key's request (one round trip for both: a
   * status poll's job row), built from the raw path params, the URL and the caller (as its key
   * lookup is remembered: the user is right, the standing is confirmed by that same statement).
   * Its first row reaches the handler as `carried` (JSON; null: no row); `carried` is undefined
   * when nothing carried it (a session caller, no read built): the handler reads for itself.
   */
  carry?: (args: { params: Record<string, string | string[] | undefined>; url: URL; principal: Principal }) => SQL | null;
};

/** The domain's context (lib/context.ts); anonymous routes may have no caller. */
export type RequestContext<A extends AuthMode> = A extends "none" | "optional" ? OptionalServiceContext : ServiceContext;

export type HandlerArgs<A extends AuthMode, B extends Schema, Q extends Schema, P extends Schema> = {
  req: Request;
  url: URL;
  ctx: RequestContext<A>;
  body: Out<B, undefined>;
  query: Out<Q, Record<string, string>>;
  params: Out<P, Record<string, string | string[]>>;
  /** The row `carry` read (see RouteOptions.carry); undefined when nothing carried it. */
  carried?: Record<string, unknown> | null;
};

/** What Next.js passes as the second argument of a route handler. */
export type RouteContext = { params: Promise<Record<string, string | string[] | undefined>> };

export type RouteHandler = (req: Request, context: RouteContext) => Promise<Response>;

function wrap(surface: Surface) {
  return function withSurface<
    A extends AuthMode = "key",
    B extends Schema = undefined,
    Q extends Schema = undefined,
    P extends Schema = undefined,
  >(options: RouteOptions<A, B, Q, P>, handler: (args: HandlerArgs<A, B, Q, P>) => Response | Promise<Response>): RouteHandler {
    return async (req, context) => {
      const startedAt = performance.now();
      const requestId = requestIdOf(req);
      let response: Response;
      // For the request's metrics and log line (lib/observability/request.ts).
      let rawParams: Record<string, string | string[] | undefined> | undefined;
      let caller: Principal | null = null;
      let limitHeaders: Record<string, string> | undefined;
      if (options.serverTiming) startTiming(req);
      try {
        rawParams = (await context?.params) ?? {};
        const url = new URL(req.url);
        const db = await getDb();
        const mode = options.auth ?? "key";
        const resolved = mode === "none" ? null : await resolvePrincipal(db, req);
        caller = resolved;
        authorize(mode, resolved);
        lap(req, "auth");
        // The rate limiter's statement also confirms a remembered key lookup (lib/auth/resolve).
        const carry = options.carry && resolved ? options.carry({ params: rawParams, url, principal: resolved }) : null;
        const { limit, principal, carried } = await enforceRateLimits(
          { db, req, principal: resolved },
          options.rateLimit,
          undefined,
          carry,
        );
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
        const ctx = { requestId, db, principal } as RequestContext<A>;
        response = await handler({ req, url, ctx, body, query, params, carried } as HandlerArgs<A, B, Q, P>);
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
  };
}

/** Gateway surface: errors in the `{error, message, …}` envelope. */
export const withGateway = wrap("gateway");
/** Skill surface (`/api/v1`): errors in the `{error, code, details}` envelope. */
export const withSkill = wrap("skill");

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
