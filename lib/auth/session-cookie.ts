/**
 * Auth.js database sessions: the cookie holds the raw session token. Over https the name carries
 * the `__Secure-` prefix; both are accepted so the same code serves http (local) and https.
 */
export const SESSION_COOKIES = ["__Secure-authjs.session-token", "authjs.session-token"] as const;

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
  for (const name of SESSION_COOKIES) {
    const token = readCookie(header, name);
    if (token) return token;
  }
  return null;
}
