import { env } from "@/lib/core/env";
import { thisMachineOrigin } from "@/lib/core/app-url";

/**
 * Which origin sign-in links, their cookies and the redirects after signing in are for.
 *
 * - The operator set AUTH_URL, or APP_URL: that origin, whatever a request says (a forged Host
 *   header must not choose where a magic link points).
 * - Neither is set (embedded defaults): the host the browser is on, when its Host header names this
 *   machine (lib/core/app-url.ts `thisMachineOrigin`), so a person on 127.0.0.1 gets a link, and a
 *   cookie, for 127.0.0.1 rather than for the listening address's "localhost"; any other Host gets
 *   the listening address (APP_URL's default).
 */

/** Values this module wrote into process.env.AUTH_URL (a later re-read of the settings sees them). */
const written = new Set<string>();

/** The origin the operator configured for sign-in, or null on embedded defaults. */
export function configuredSignInOrigin(): string | null {
  const e = env();
  if (e.AUTH_URL !== undefined && !written.has(e.AUTH_URL)) return new URL(e.AUTH_URL).origin;
  return process.env.APP_URL ? new URL(e.APP_URL).origin : null;
}

/**
 * next-auth builds URLs from process.env.AUTH_URL when it is set, else from the request (or, in a
 * server action, its forwarded host). It is kept equal to the configured origin, and absent when
 * sign-in follows the request's host (the Auth.js routes then get requests already on that origin,
 * and the link is checked in the mail). Called per request, since tests change the settings.
 */
export function syncAuthUrl(): void {
  const configured = configuredSignInOrigin();
  if (configured === null) {
    if (process.env.AUTH_URL !== undefined && written.has(process.env.AUTH_URL)) delete process.env.AUTH_URL;
  } else if (process.env.AUTH_URL === undefined || written.has(process.env.AUTH_URL)) {
    process.env.AUTH_URL = configured;
    written.add(configured);
  }
}

/** The origin sign-in is for, for a request with these headers (null: outside a request). */
export function signInOrigin(headers: Headers | null): string {
  return configuredSignInOrigin() ?? thisMachineOrigin(headers?.get("host")) ?? new URL(env().APP_URL).origin;
}

/**
 * The host the person is on, when it is not the one sign-in links are for: the sign-in page says
 * so, since signing in there would end on the other host. Behind proxies (TRUST_PROXY) the host is
 * the one the first proxy was asked for (X-Forwarded-Host).
 */
export function signInHostMismatch(headers: Headers): { origin: string; host: string } | null {
  const origin = signInOrigin(headers);
  const forwarded = env().TRUST_PROXY ? headers.get("x-forwarded-host")?.split(",")[0]?.trim() : undefined;
  const host = forwarded || headers.get("host");
  if (!host) return null;
  const { protocol, host: expected } = new URL(origin);
  let seen: string;
  try {
    seen = new URL(`${protocol}//${host}`).host;
  } catch {
    seen = host;
  }
  return seen === expected ? null : { origin, host: seen };
}
