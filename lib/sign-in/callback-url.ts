/**
 * Where to go after signing in: a path on this site only. Absolute URLs, protocol-relative `//x`
 * and `/\x` (which browsers treat as `//x`) fall back to the dashboard, so a crafted sign-in link
 * cannot bounce a fresh session to another site.
 */
export function safeCallbackUrl(value: unknown, fallback = "/dashboard"): string {
  if (typeof value !== "string" || !value.startsWith("/") || value.startsWith("//") || value.startsWith("/\\")) return fallback;
  return value.length > 512 ? fallback : value;
}
