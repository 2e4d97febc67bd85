import type { IncomingMessage, Server, ServerResponse } from "node:http";
import type { Duplex } from "node:stream";
import { DomainError } from "@/lib/core/errors";
import { renderError } from "./render";

/**
 * Methods Next.js cannot route, answered 405 method_not_allowed in the envelope with Allow and
 * X-Request-ID before Next sees them. Next's own answers carry neither body nor request id, and
 * no hook of ours runs for them:
 *
 * - TRACE (and TRACK): undici refuses to build a `Request` with them, so Next fails every path
 *   with a bare 500 before the proxy or a route runs.
 * - Other methods Node parses (PROPFIND, MKCOL, LOCK, …): app routes answer a bare 400
 *   (next/dist/server/route-modules/app-route `resolveHandler`: only GET, HEAD, OPTIONS, POST,
 *   PUT, DELETE and PATCH reach a handler), pages a plain-text 405.
 * - CONNECT: Node emits `connect` instead of `request`, and with no listener drops the socket.
 * - A method Node's parser does not know at all (`FOO`): `clientError` HPE_INVALID_METHOD, which
 *   Node answers with a bare 400.
 *
 * Like the socket-address stamp (lib/net/socket-address.ts), this wraps `http.Server.prototype
 * .emit`: it is the one place every request passes. instrumentation.ts installs it.
 */
const ROUTED = new Set(["GET", "HEAD", "OPTIONS", "POST", "PUT", "DELETE", "PATCH"]);
const ALLOW = [...ROUTED].sort().join(", ");

type Guard = { installed: boolean };
const slot = Symbol.for("generation-gateway:unknown-method-guard");
const state = ((globalThis as Record<symbol, Guard | undefined>)[slot] ??= { installed: false });

const SAFE_ID = /^[\w.:-]{8,128}$/;
const requestIdOf = (given: string | string[] | undefined) =>
  typeof given === "string" && SAFE_ID.test(given) ? given : crypto.randomUUID();

/** The 405 for `method`, as the route wrapper renders every error. */
async function refusal(method: string, requestId: string): Promise<{ status: number; headers: [string, string][]; body: Buffer }> {
  const name = /^[A-Z][A-Z0-9_-]{0,31}$/i.test(method) ? method.toUpperCase() : "This method";
  const res = renderError(
    "gateway",
    new DomainError("method_not_allowed", `${name} is not accepted here; use ${ALLOW}`, {}, { Allow: ALLOW }),
    requestId,
  );
  return { status: res.status, headers: [...res.headers], body: Buffer.from(await res.arrayBuffer()) };
}

function refuseRequest(req: IncomingMessage, res: ServerResponse): void {
  void refusal(req.method ?? "", requestIdOf(req.headers["x-request-id"])).then(({ status, headers, body }) => {
    res.writeHead(status, [...headers, ["Content-Length", String(body.byteLength)]].flat());
    res.end(body);
  });
}

/** On a socket Node has not answered (CONNECT, an unparsable method): a whole HTTP/1.1 response, then close. */
function refuseOnSocket(socket: Duplex, method: string, requestId: string): void {
  void refusal(method, requestId).then(({ status, headers, body }) => {
    if (!socket.writable) return socket.destroy();
    const head = [
      `HTTP/1.1 ${status} Method Not Allowed`,
      ...headers.map(([k, v]) => `${k}: ${v}`),
      `Content-Length: ${body.byteLength}`,
      "Connection: close",
    ];
    socket.end(Buffer.concat([Buffer.from(`${head.join("\r\n")}\r\n\r\n`), body]));
  });
}

const answersConnect = new WeakSet<Server>();
const refuseConnect = (req: IncomingMessage, socket: Duplex) => refuseOnSocket(socket, "CONNECT", requestIdOf(req.headers["x-request-id"]));

/** Installs the guard on every HTTP server of the process (idempotent); returns its removal. */
export async function installUnknownMethodGuard(): Promise<() => void> {
  const { Server } = await import("node:http");
  if (state.installed) return () => {};
  const emit = Server.prototype.emit;
  const guarded = function emitGuarded(this: Server, event: string | symbol, ...args: unknown[]): boolean {
    // `checkContinue` / `checkExpectation` stand in for `request` when a listener takes them.
    if (event === "request" || event === "checkContinue" || event === "checkExpectation") {
      const [req, res] = args as [IncomingMessage, ServerResponse];
      if (!ROUTED.has(req.method ?? "")) {
        refuseRequest(req, res);
        return true;
      }
    } else if (event === "connection" && !answersConnect.has(this)) {
      // Node checks for a `connect` listener before emitting one (and drops the socket without):
      // each server gets ours with its first connection, unless it handles CONNECT itself.
      answersConnect.add(this);
      if (this.listenerCount("connect") === 0) this.on("connect", refuseConnect);
    } else if (event === "clientError" && this.listenerCount("clientError") === 0) {
      const [err, socket] = args as [Error & { code?: string; rawPacket?: Buffer }, Duplex];
      if (err.code === "HPE_INVALID_METHOD") {
        refuseOnSocket(socket, err.rawPacket?.toString("latin1").split(" ", 1)[0] ?? "", crypto.randomUUID());
        return true;
      }
    }
    return emit.apply(this, [event, ...args] as Parameters<typeof emit>);
  } as typeof emit;
  Server.prototype.emit = guarded;
  state.installed = true;
  return () => {
    if (Server.prototype.emit === guarded) Server.prototype.emit = emit;
    state.installed = false;
  };
}
