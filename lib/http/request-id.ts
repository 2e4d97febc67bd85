const SAFE_ID = /^[\w.:-]{8,128}$/;

/**
 * The request id: the one proxy.ts assigned (forwarded as a request header), or a fresh UUID when
 * a handler is called directly (tests). A client-supplied id is kept only if it looks harmless.
 */
export function requestIdOf(req: Request): string {
  const given = req.headers.get("x-request-id");
  return given && SAFE_ID.test(given) ? given : crypto.randomUUID();
}
