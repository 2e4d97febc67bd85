import { env } from "@/lib/core/env";

/**
 * Auth.js database sessions: the cookie holds the raw session token. Auth.js names it with the
 * `__Secure-` prefix when its origin (AUTH_URL, else APP_URL) is https, and only that name is read
 * then: a browser keeps a prefixed cookie only from a secure origin of this very host, while the
 * bare name could be planted by plain http or a sibling subdomain (a session fixed on the victim).
 * Over http (local) Auth.js sets the bare name, and both are read.
 */
const SECURE_SESSION_COOKIE = "__Secure-authjs.session-token";
const SESSION_COOKIES = [SECURE_SESSION_COOKIE, "authjs.session-token"] as const;

export function sessionCookieNames(): readonly string[] {
  const e = env();
  return new URL(e.AUTH_URL ?? e.APP_URL).protocol === "https:" ? [SECURE_SESSION_COOKIE] : SESSION_COOKIES;
}

export function readCookie(header: string | null, name: string): string | null {
  if (!header) return null;
  for (const part of header.split(";")) {
    const eq = part.indexOf("=");
    if (eq > 0 && part.slice(0, eq).trim() === name) {
      const value = part.slice(eq + 1).trim();
      try {
        return decodeURIComponent(value);
      } catch {
        return value;
      }
    }
  }
  return null;
}

export function sessionTokenFrom(req: Request): string | null {
  const header = req.headers.get("cookie");
  for (const name of sessionCookieNames()) {
    const token = readCookie(header, name);
    if (token) return token;
  }
  return null;
}
