import { env, type Env } from "@/lib/core/env";

/**
 * The security headers of every page (proxy.ts sets them; `X-Content-Type-Options: nosniff` is set
 * for every response by next.config.ts). Pages run under a strict Content Security Policy: scripts
 * only by the request's nonce (Next.js reads it from the policy the proxy puts on the request and
 * stamps it on its own scripts; every page is rendered per request anyway, for its locale) and
 * what those scripts load ('strict-dynamic'). /docs writes its own HTML and hashes its scripts
 * (app/(gateway)/docs/page-html.ts) with the same directives otherwise.
 */

/**
 * Where shown media may come from: this site, APP_URL (stored files' and catalog images' absolute
 * URLs, which may name another host than the one the page is on), the S3 display base, and any
 * https URL (results kept at the provider when storage is off, catalog images an admin set,
 * inputs the playground previews). Images and media cannot run script.
 */
function mediaSources(e: Env): string[] {
  const origins = new Set([originOf(e.APP_URL)]);
  if (e.S3_PUBLIC_URL) origins.add(originOf(e.S3_PUBLIC_URL));
  // Without S3_PUBLIC_URL the display base is the bucket's URL on the endpoint (lib/storage/s3.ts).
  else if (e.S3_ENDPOINT && e.S3_BUCKET) {
    const endpoint = new URL(e.S3_ENDPOINT);
    origins.add(e.S3_FORCE_PATH_STYLE ? endpoint.origin : `${endpoint.protocol}//${e.S3_BUCKET}.${endpoint.host}`);
  }
  return ["'self'", "data:", "blob:", "https:", ...origins];
}

const originOf = (url: string) => new URL(url).origin;

export const isHttpsSite = (e: Env = env()) => e.APP_URL.startsWith("https:");

/** The policy's directives other than script-src, for one configuration (rebuilt when it changes). */
const sharedDirectives = new WeakMap<Env, string>();

function directivesFor(e: Env): string {
  let directives = sharedDirectives.get(e);
  if (directives === undefined) {
    const media = mediaSources(e).join(" ");
    directives = [
      "default-src 'self'",
      // React puts style attributes in server-rendered HTML, and Scalar inserts <style> elements.
      "style-src 'self' 'unsafe-inline'",
      `img-src ${media}`,
      `media-src ${media}`,
      "font-src 'self' data:",
      // The dashboard and /docs call the API; its answers' URLs (polls, streams) are on APP_URL.
      `connect-src 'self' ${originOf(e.APP_URL)}`,
      "worker-src 'self' blob:",
      "object-src 'none'",
      "base-uri 'none'",
      // Forms post to this site; a form's redirect to OAuth sign-in or a payment page leaves by a
      // script navigation, which form-action does not govern.
      `form-action 'self' ${originOf(e.APP_URL)}`,
      "frame-ancestors 'none'",
      ...(isHttpsSite(e) ? ["upgrade-insecure-requests"] : []),
    ].join("; ");
    sharedDirectives.set(e, directives);
  }
  return directives;
}

/** `script-src` sources: a page's nonce, or /docs' hashes. React needs eval only in development. */
export function contentSecurityPolicy(scripts: string[], e: Env = env()): string {
  const dev = e.NODE_ENV === "development" ? " 'unsafe-eval'" : "";
  return `script-src ${scripts.join(" ")}${dev}; ${directivesFor(e)}`;
}

/** A fresh nonce per page response: 128 random bits. */
export function newNonce(): string {
  return Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString("base64");
}

export const pagePolicy = (nonce: string, e: Env = env()) => contentSecurityPolicy([`'nonce-${nonce}'`, "'strict-dynamic'"], e);

/**
 * Headers every page (and anything else the proxy answers) carries besides its policy. HSTS only
 * behind an https APP_URL: an http deployment would otherwise lock browsers out of itself.
 */
export function pageHeaders(e: Env = env()): Record<string, string> {
  return {
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "strict-origin-when-cross-origin",
    ...(isHttpsSite(e) ? { "Strict-Transport-Security": "max-age=31536000" } : {}),
  };
}
