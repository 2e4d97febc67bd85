import { randomBytes, timingSafeEqual } from "node:crypto";
import type { IncomingMessage } from "node:http";

/**
 * The TCP peer of a request, as the server saw it. Next.js hands route handlers, pages and the
 * proxy a `Request` with no socket, and fills `X-Forwarded-For` from the socket only when the
 * client sent none (`??=` in next/dist/server/base-server.js), so nothing a handler reads is
 * beyond the client's control. This module closes that gap:
 *
 * - `installSocketAddressStamp()` (called by instrumentation.ts `register()`, before the first
 *   request is handled) wraps `http.Server.prototype.emit`, and on every `request` event writes
 *   the socket's address into SOCKET_HEADER, overwriting whatever the client sent under that name.
 * - The value carries a random token made once per process, so a header that did not come from
 *   the stamp (no stamp installed, a custom server, a request built by a test) is not believed,
 *   and a request that already carries a genuine one is Next.js re-requesting a page from itself
 *   (a server action's redirect): it keeps the original peer.
 *
 * Requests accepted before `register()` ran (the first moments of start-up) carry no stamp and
 * read as an unknown address: refused wherever loopback is required, counted together by IP limits.
 */
export const SOCKET_HEADER = "x-gateway-socket";

type Stamp = { token: string; installed: boolean };

// On globalThis under a registry symbol: instrumentation and the routes are separate server
// chunks, each with its own copy of this module, and they must share one token.
const slot = Symbol.for("generation-gateway:socket-stamp");
const state = ((globalThis as Record<symbol, Stamp | undefined>)[slot] ??= {
  token: randomBytes(18).toString("base64url"),
  installed: false,
});

/** IPv4 peers of a dual-stack socket arrive as `::ffff:a.b.c.d`; one spelling per address. */
export const normalizeAddress = (address: string) => address.trim().replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/i, "");

/** The header value the stamp writes for a peer (tests use it to stand in for the server). */
export function stampValue(address: string, forwarded = false): string {
  return `${state.token} ${normalizeAddress(address)} ${forwarded ? "forwarded" : "direct"}`;
}

const FORWARDING_HEADERS = ["x-forwarded-for", "forwarded", "x-real-ip"] as const;

function stamp(req: IncomingMessage): void {
  // A genuine stamp can only come from this process: Next.js re-requesting a page from itself with
  // the original request's headers (a server action's redirect fetches its target over loopback).
  // The original peer stands; the loopback hop must not make that request look local.
  const carried = req.headers[SOCKET_HEADER];
  if (typeof carried === "string" && parseStamp(carried)) return;
  const address = req.socket?.remoteAddress;
  const forwarded = FORWARDING_HEADERS.some((h) => req.headers[h] !== undefined);
  if (address) req.headers[SOCKET_HEADER] = stampValue(address, forwarded);
  else delete req.headers[SOCKET_HEADER];
}

/** Idempotent; the production server calls it from instrumentation.ts. */
export async function installSocketAddressStamp(): Promise<void> {
  if (state.installed) return;
  const { Server } = await import("node:http");
  const emit = Server.prototype.emit;
  Server.prototype.emit = function emitStamped(this: InstanceType<typeof Server>, event: string | symbol, ...args: unknown[]) {
    // `checkContinue` / `checkExpectation` stand in for `request` when a listener takes them.
    if (event === "request" || event === "checkContinue" || event === "checkExpectation") stamp(args[0] as IncomingMessage);
    return emit.apply(this, [event, ...args] as Parameters<typeof emit>);
  } as typeof emit;
  state.installed = true;
}

export type SocketPeer = {
  /** The socket's remote address (IPv4-mapped IPv6 folded to IPv4). */
  address: string;
  /** Whether the request carried X-Forwarded-For, Forwarded or X-Real-IP when it arrived. */
  forwarded: boolean;
};

/** The peer the stamp recorded, or null when the request carries no genuine stamp. */
export function socketPeer(headers: Headers): SocketPeer | null {
  const value = headers.get(SOCKET_HEADER);
  return value ? parseStamp(value) : null;
}

function parseStamp(value: string): SocketPeer | null {
  const [token, address, how, ...rest] = value.split(" ");
  if (!token || !address || rest.length > 0 || (how !== "direct" && how !== "forwarded")) return null;
  const given = Buffer.from(token);
  const ours = Buffer.from(state.token);
  if (given.length !== ours.length || !timingSafeEqual(given, ours)) return null;
  return { address, forwarded: how === "forwarded" };
}
