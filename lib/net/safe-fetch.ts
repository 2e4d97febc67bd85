import http, { type IncomingHttpHeaders, type IncomingMessage } from "node:http";
import https from "node:https";
import { isIP } from "node:net";
import { Transform, type Readable } from "node:stream";
import { env } from "@/lib/core/env";
import { isAddressAllowed, type NetPolicy } from "./address";
import { isOutboundError, OutboundError } from "./errors";
import { guardedLookup, type Resolver } from "./lookup";

export type SafeFetchOptions = {
  method?: string;
  headers?: Record<string, string>;
  body?: string | Uint8Array;
  /** Largest response body accepted; a larger Content-Length is refused before reading. */
  maxBytes?: number;
  /** One deadline for the whole exchange: connect, every redirect, headers and body. */
  timeoutMs?: number;
  /** `follow` (default) re-checks every hop; `manual` returns a 3xx as it is (callbacks). */
  redirect?: "follow" | "manual";
  maxRedirects?: number;
  /** Defaults to ALLOW_PRIVATE_URLS. */
  policy?: NetPolicy;
  /** Tests inject a resolver to play DNS tricks. */
  resolver?: Resolver;
  signal?: AbortSignal;
};

export type SafeResponse = {
  status: number;
  headers: IncomingHttpHeaders;
  /** The final URL, after redirects. */
  url: string;
  redirects: number;
  /** The body, cut off with `too_large` past maxBytes and with `timeout` past the deadline. */
  body: Readable;
  bytes(): Promise<Buffer>;
  text(): Promise<string>;
  /** Drops the body and frees the connection. */
  discard(): void;
};

export const DEFAULT_MAX_BYTES = 10 * 1024 * 1024;
export const DEFAULT_TIMEOUT_MS = 30_000;
export const DEFAULT_MAX_REDIRECTS = 5;
const REDIRECTS = new Set([301, 302, 303, 307, 308]);

export const defaultPolicy = (): NetPolicy => ({ allowPrivate: env().ALLOW_PRIVATE_URLS });

/** Parses and checks a URL's form: http(s) only, with a host. Throws `invalid_url`. */
export function parseOutboundUrl(input: string | URL): URL {
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    throw new OutboundError("invalid_url", "Not a valid URL");
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new OutboundError("invalid_url", `Only http and https URLs are fetched, not ${url.protocol}`);
  }
  if (!url.hostname) throw new OutboundError("invalid_url", "The URL has no host");
  return url;
}

const bareHost = (url: URL) => url.hostname.replace(/^\[|\]$/g, "");

/**
 * Fetches a URL supplied by a user or a provider without letting it reach private addresses:
 * the host is resolved and checked, the socket connects to the checked address, each redirect
 * is checked again, and size and time are bounded. Used for re-hosting provider results, for
 * `image_url`/`audio_url` inputs the service reads, and for completion callbacks.
 */
export async function safeFetch(input: string | URL, options: SafeFetchOptions = {}): Promise<SafeResponse> {
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const maxRedirects = options.maxRedirects ?? DEFAULT_MAX_REDIRECTS;
  const policy = options.policy ?? defaultPolicy();
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(new OutboundError("timeout", `No complete answer within ${timeoutMs} ms`)), timeoutMs);
  const onOuterAbort = () => deadline.abort(options.signal?.reason ?? new OutboundError("timeout", "Aborted"));
  options.signal?.addEventListener("abort", onOuterAbort, { once: true });
  const finish = () => {
    clearTimeout(timer);
    options.signal?.removeEventListener("abort", onOuterAbort);
  };

  try {
    let url = parseOutboundUrl(input);
    let method = (options.method ?? "GET").toUpperCase();
    let body = options.body;
    let headers: Record<string, string> = { "user-agent": "GenerationGateway/1.0", "accept-encoding": "identity", ...options.headers };
    for (let redirects = 0; ; redirects++) {
      const res = await requestOnce(url, { method, headers, body, policy, resolver: options.resolver, signal: deadline.signal });
      const location = res.headers.location;
      if (options.redirect !== "manual" && REDIRECTS.has(res.statusCode ?? 0) && location) {
        res.destroy();
        if (redirects >= maxRedirects) throw new OutboundError("too_many_redirects", `More than ${maxRedirects} redirects`);
        const next = parseOutboundUrl(new URL(location, url));
        if (res.statusCode === 303 || ((res.statusCode === 301 || res.statusCode === 302) && method === "POST")) {
          method = "GET";
          body = undefined;
        }
        // Credentials meant for one origin never follow a redirect to another.
        if (next.origin !== url.origin) headers = withoutCredentials(headers);
        url = next;
        continue;
      }
      return wrapResponse(res, { url: url.toString(), redirects, maxBytes, signal: deadline.signal, finish });
    }
  } catch (err) {
    finish();
    throw toOutboundError(err, deadline.signal);
  }
}

function withoutCredentials(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).filter(([k]) => !/^(authorization|cookie|proxy-authorization)$/i.test(k)));
}

type OnceOptions = {
  method: string;
  headers: Record<string, string>;
  body: string | Uint8Array | undefined;
  policy: NetPolicy;
  resolver?: Resolver;
  signal: AbortSignal;
};

function requestOnce(url: URL, o: OnceOptions): Promise<IncomingMessage> {
  const host = bareHost(url);
  // Literal addresses never go through lookup, so they are checked here.
  if (isIP(host) && !isAddressAllowed(host, o.policy)) {
    return Promise.reject(new OutboundError("blocked_address", `${host} is a private or reserved address`));
  }
  const transport = url.protocol === "https:" ? https : http;
  return new Promise((resolve, reject) => {
    const req = transport.request(
      {
        protocol: url.protocol,
        hostname: host,
        port: url.port || undefined,
        path: `${url.pathname}${url.search}`,
        method: o.method,
        headers: o.body === undefined ? o.headers : { ...o.headers, "content-length": String(Buffer.byteLength(o.body)) },
        // A fresh connection per request: a pooled socket may have been opened under a looser policy.
        agent: false,
        lookup: isIP(host) ? undefined : guardedLookup(o.policy, o.resolver),
        signal: o.signal,
      },
      resolve,
    );
    req.on("error", reject);
    req.end(o.body);
  });
}

function wrapResponse(
  res: IncomingMessage,
  w: { url: string; redirects: number; maxBytes: number; signal: AbortSignal; finish: () => void },
): SafeResponse {
  const declared = Number(res.headers["content-length"]);
  if (Number.isFinite(declared) && declared > w.maxBytes) {
    res.destroy();
    w.finish();
    throw new OutboundError("too_large", `The response declares ${declared} bytes; the limit is ${w.maxBytes}`);
  }
  let seen = 0;
  const limited = new Transform({
    transform(chunk: Buffer, _enc, done) {
      seen += chunk.byteLength;
      if (seen > w.maxBytes) done(new OutboundError("too_large", `The response is larger than ${w.maxBytes} bytes`));
      else done(null, chunk);
    },
  });
  const onAbort = () => limited.destroy(toOutboundError(w.signal.reason, w.signal));
  w.signal.addEventListener("abort", onAbort, { once: true });
  res.on("error", (err) => limited.destroy(toOutboundError(err, w.signal)));
  res.on("aborted", () => limited.destroy(new OutboundError("network", "The connection closed mid-body")));
  limited.on("close", () => {
    w.signal.removeEventListener("abort", onAbort);
    res.destroy();
    w.finish();
  });
  res.pipe(limited);
  const bytes = async () => {
    const chunks: Buffer[] = [];
    for await (const chunk of limited) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks);
  };
  return {
    status: res.statusCode ?? 0,
    headers: res.headers,
    url: w.url,
    redirects: w.redirects,
    body: limited,
    bytes,
    text: async () => (await bytes()).toString("utf8"),
    discard: () => limited.destroy(),
  };
}

export function toOutboundError(err: unknown, signal?: AbortSignal): OutboundError {
  if (isOutboundError(err)) return err;
  if (signal?.aborted && isOutboundError(signal.reason)) return signal.reason;
  const cause = (err as { cause?: unknown })?.cause;
  if (isOutboundError(cause)) return cause;
  const code = (err as NodeJS.ErrnoException)?.code;
  if (code === "ENOTFOUND" || code === "EAI_AGAIN") return new OutboundError("dns_failure", "Cannot resolve the host");
  return new OutboundError("network", `Connection failed${code ? ` (${code})` : ""}`);
}
