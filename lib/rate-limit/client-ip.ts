/**
 * The client address for IP limits. Route handlers see no socket, so this reads X-Forwarded-For:
 * the right-most entry is the address the nearest hop saw — Next.js fills the header from the
 * socket when it is absent, and a reverse proxy in front (nginx `$proxy_add_x_forwarded_for`)
 * appends the real peer. Entries further left are client-supplied and never trusted. Without a
 * proxy, a client that sends its own header chooses its bucket: deploy behind a proxy that
 * appends (or overwrites) X-Forwarded-For.
 */
export function clientIp(req: { headers: Headers }): string {
  const forwarded = req.headers.get("x-forwarded-for");
  const last = forwarded?.split(",").pop()?.trim();
  if (last) return last.replace(/^::ffff:/, "");
  return req.headers.get("x-real-ip")?.trim() || "unknown";
}
