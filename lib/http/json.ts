const utf8 = new TextEncoder();

/** Below this size a body is sent as it is: gzip would cost more CPU than the bytes it saves. */
const COMPRESS_FROM_BYTES = 1024;

/**
 * A JSON response; the wrapper adds X-Request-ID and CORS headers. Next gzips every route
 * handler's answer, whatever its size (it drops Content-Length, so its compression cannot see
 * one), and a zlib stream per small answer costs 0.25–0.7 ms of CPU here (docs/speed.md): a body
 * under 1 KB says `no-transform`, which Next's compression and proxies honour.
 */
export function json(data: unknown, init?: ResponseInit): Response {
  const text = JSON.stringify(data);
  if (text === undefined) throw new TypeError("json(): the value has no JSON form");
  const body = utf8.encode(text);
  const headers = new Headers(init?.headers);
  if (!headers.has("content-type")) headers.set("content-type", "application/json");
  if (body.byteLength < COMPRESS_FROM_BYTES) {
    const cacheControl = headers.get("cache-control");
    headers.set("cache-control", cacheControl ? `${cacheControl}, no-transform` : "no-transform");
  }
  return new Response(body, { ...init, headers });
}

/** 204 for DELETEs and other answers with no body. */
export const noContent = () => new Response(null, { status: 204 });
