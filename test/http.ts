import type { RouteContext, RouteHandler } from "@/lib/http/handler";
import { SOCKET_HEADER, stampValue } from "@/lib/net/socket-address";

export const BASE_URL = "http://localhost:3000";

export type CallOptions = {
  method?: string;
  /** A JSON body (serialised) or a raw body (sent as is). */
  body?: unknown;
  headers?: Record<string, string>;
  /** `Authorization: Bearer <key>`. */
  key?: string;
  /** Auth.js session token, sent as the session cookie. */
  session?: string;
  /**
   * The TCP peer's address, as the production server stamps it on every request
   * (lib/net/socket-address.ts). Unset: no stamp, so the client address is "unknown".
   */
  socket?: string;
  params?: Record<string, string | string[]>;
};

export type CallResult<T = any> = {
  status: number;
  headers: Headers;
  body: T;
  text: string;
  response: Response;
};

/** Builds a real Request and calls a route handler the way Next.js does. */
export async function call<T = any>(
  handler: RouteHandler | ((req: Request, ctx: RouteContext) => Promise<Response>),
  path: string,
  options: CallOptions = {},
): Promise<CallResult<T>> {
  const headers = new Headers(options.headers);
  if (options.key) headers.set("authorization", `Bearer ${options.key}`);
  if (options.session) headers.append("cookie", `authjs.session-token=${options.session}`);
  if (options.socket) headers.set(SOCKET_HEADER, stampValue(options.socket));
  let body: BodyInit | undefined;
  if (options.body !== undefined) {
    const raw =
      typeof options.body === "string" ||
      options.body instanceof Uint8Array ||
      options.body instanceof ReadableStream ||
      options.body instanceof FormData ||
      options.body instanceof Blob;
    body = raw ? (options.body as BodyInit) : JSON.stringify(options.body);
    if (!raw && !headers.has("content-type")) headers.set("content-type", "application/json");
  }
  const req = new Request(new URL(path, BASE_URL), {
    method: options.method ?? (body === undefined ? "GET" : "POST"),
    headers,
    body,
    // Node's fetch needs this for streamed request bodies.
    ...(body instanceof ReadableStream ? { duplex: "half" } : {}),
  } as RequestInit);
  const response = await handler(req, { params: Promise.resolve(options.params ?? {}) });
  const text = await response.clone().text();
  let parsed: unknown = text;
  if ((response.headers.get("content-type") ?? "").includes("json")) {
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = text;
    }
  }
  return { status: response.status, headers: response.headers, body: parsed as T, text, response };
}
