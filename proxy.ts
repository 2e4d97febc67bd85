import { NextResponse, type NextRequest } from "next/server";
import { sessionCookieNames } from "@/lib/auth/session-cookie";
import { preflightHeaders } from "@/lib/http/cors";
import { DomainError } from "@/lib/core/errors";
import { renderError } from "@/lib/http/render";
import { requestIdOf } from "@/lib/http/request-id";
import { newNonce, pageHeaders, pagePolicy } from "@/lib/http/security-headers";

/**
 * Runs before every matched request: assigns the request id (forwarded to handlers as a request
 * header and set on the response, so even a 404 page carries X-Request-ID), answers CORS
 * preflights and sets the pages' security headers. Auth is not decided here; the route wrapper does that.
 */
export function proxy(req: NextRequest) {
  // The page's policy goes on the request too: Next.js takes the nonce for its scripts from there.
  // /docs writes its own HTML and sets its own policy (hashes of its scripts).
  const policy = /^\/docs(?:\/|$)/.test(req.nextUrl.pathname) ? null : pagePolicy(newNonce());
  const res = answer(req, policy);
  for (const [name, value] of Object.entries(pageHeaders())) res.headers.set(name, value);
  if (policy) res.headers.set("Content-Security-Policy", policy);
  return res;
}

function answer(req: NextRequest, policy: string | null) {
  const requestId = requestIdOf(req);
  const { pathname } = req.nextUrl;
  const refusal = refusedUrl(req.nextUrl);
  if (refusal) return renderError(surfaceOf(pathname), refusal, requestId);
  // Next's own trailing-slash redirect is off (next.config.ts): on the API a trailing slash is an
  // empty id (`DELETE /me/keys/`), answered in the envelope; a page's URL still loses it (308).
  if (pathname.length > 1 && pathname.endsWith("/")) {
    if (API_PATH.test(pathname)) {
      const empty = new DomainError("invalid_params", "The path ends with an empty segment: an id in it is empty", {
        issues: [{ path: ["path"], message: "Empty path segment" }],
      });
      return renderError(surfaceOf(pathname), empty, requestId);
    }
    // A plain URL: NextURL would put the trailing slash it was parsed with back.
    const canonical = new URL(req.url);
    canonical.pathname = pathname.replace(/\/+$/, "") || "/";
    return NextResponse.redirect(canonical, { status: 308, headers: { "X-Request-ID": requestId } });
  }
  if (req.method === "OPTIONS" && req.headers.get("access-control-request-method")) {
    return new NextResponse(null, {
      status: 204,
      headers: { ...preflightHeaders(req.headers.get("origin")), "X-Request-ID": requestId },
    });
  }
  // A model's llms.txt: `/catalog/{modelId}` is the page's catch-all, which no segment may follow.
  const llms = /^\/catalog\/(.+)\/llms\.txt$/.exec(req.nextUrl.pathname);
  if (llms) {
    const headers = forwardedHeaders(req, requestId, policy);
    return NextResponse.rewrite(new URL(`/llms.txt/${llms[1]}`, req.url), { request: { headers }, headers: { "X-Request-ID": requestId } });
  }
  // Dashboard pages without any session cookie go to sign-in and come back afterwards. Only a
  // shortcut for the common case: the dashboard layout validates the session itself.
  if (req.nextUrl.pathname.startsWith("/dashboard") && !sessionCookieNames().some((name) => req.cookies.has(name))) {
    const signin = req.nextUrl.clone();
    signin.pathname = "/signin";
    signin.search = new URLSearchParams({ callbackUrl: req.nextUrl.pathname + req.nextUrl.search }).toString();
    return NextResponse.redirect(signin, { headers: { "X-Request-ID": requestId } });
  }
  const res = NextResponse.next({ request: { headers: forwardedHeaders(req, requestId, policy) } });
  res.headers.set("X-Request-ID", requestId);
  return res;
}

function forwardedHeaders(req: NextRequest, requestId: string, policy: string | null) {
  const headers = new Headers(req.headers);
  headers.set("x-request-id", requestId);
  if (policy) headers.set("content-security-policy", policy);
  return headers;
}

/** The JSON API's paths (route handlers, not pages): the matcher below leaves them out but for these checks. */
const API_PATH =
  /^\/(?:files|run|queue|models|me|billing|admin|health|webhooks|integrations|api\/v1|api\/inngest|api\/fal|fal|mcp|openapi\.json|changelog\.json|llms\.txt)(?:\/|$)/;

/** The skill surface (/api/v1, /mcp) answers in its own envelope. */
const surfaceOf = (pathname: string) => (/^\/(?:api\/v1|mcp)(?:\/|$)/.test(pathname) ? "skill" : "gateway");

/**
 * URLs no page or route can serve. A malformed percent-encoding in the path: Next fails it with a
 * bare 500 while matching dynamic routes (vercel/next.js#92557). A NUL: PostgreSQL can neither
 * store nor compare one, so a page passing it to a query would fail with a 500. (The API's
 * query strings, which skip the proxy, are checked by its wrapper.)
 */
function refusedUrl(url: URL): DomainError | null {
  try {
    decodeURIComponent(url.pathname);
  } catch {
    return new DomainError("invalid_params", "The URL path has a malformed percent-encoding");
  }
  if (url.pathname.includes("%00")) return new DomainError("invalid_params", "The URL path contains a NUL character (%00)");
  if (url.search.includes("%00")) return new DomainError("invalid_query", "The query string contains a NUL character (%00)");
  return null;
}

export const config = {
  matcher: [
    // Left out:
    // - the JSON API: its wrapper sets X-Request-ID itself (with catch-all 404s under each prefix),
    //   and a proxy pass costs every API request about 40% of its throughput (bench/ baseline);
    // - upload routes in particular: proxy buffers matched request bodies (cutting them at 10 MB),
    //   while uploads must stream and be refused past MAX_UPLOAD_BYTES;
    // - stored files under /files/ (their handler sets X-Request-ID; a proxy pass costs throughput);
    // - the MCP endpoint, for the same reasons as the API (its upload_file carries up to MAX_UPLOAD_BYTES);
    // - fal's protocol (/api/fal/proxy, /fal/…: API routes, and fal's upload PUTs stream files);
    // - static files.
    "/((?!_next/static|_next/image|favicon\\.ico|files/|run/|queue/|models(?:/|$)|me(?:/|$)|billing(?:/|$)|admin(?:/|$)|health$|webhooks/|integrations/|api/v1(?:/|$)|api/inngest|api/fal/|fal/|mcp$|openapi\\.json$|changelog\\.json$).*)",
    // …but every CORS preflight, the API's included: its routes export no OPTIONS, and Next's own
    // answer carries no CORS headers, so a browser script on another origin could not call the API.
    { source: "/:path*", has: [{ type: "header", key: "access-control-request-method" }] },
    // …and every path with a percent-escape, so a malformed one is answered here (see above);
    "/:path(.*%.*)",
    // …and every path ending in a slash, which Next.js no longer redirects (see answer()).
    "/:path(.+/)",
  ],
};
