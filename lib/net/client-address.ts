import { BlockList, isIP } from "node:net";
import { env } from "@/lib/core/env";
import { normalizeAddress, socketPeer } from "./socket-address";
import { parseTrustProxy, type Trust } from "../core/trust-proxy";

/**
 * The one answer to "which address is this client?", for every per-IP limit, the payment
 * provider's source-address allowlist, the sign-in limits and the address kept on a session.
 *
 * By default it is the socket's peer (lib/net/socket-address.ts): headers anyone can send are
 * ignored. Behind a load balancer or reverse proxy, TRUST_PROXY says which hops to believe, as
 * Express's `trust proxy` does: the chain is the socket's peer followed by the X-Forwarded-For
 * entries from right to left, and the client is the first address in it that is not trusted (or
 * the last one, when all are).
 * - a hop count `n`: the first n addresses of the chain are proxies (`1`: one load balancer);
 * - a comma-separated list of addresses and CIDR ranges: those addresses are proxies.
 * An X-Forwarded-For entry that is not an IP address ends the walk at the hop that sent it.
 */
export function clientAddress(req: { headers: Headers }): string {
  const peer = socketPeer(req.headers);
  if (!peer) return UNKNOWN;
  const trust = trustedProxies();
  if (!trust) return peer.address;
  const chain = [peer.address, ...forwardedFor(req.headers).reverse()];
  for (let i = 0; i < chain.length - 1; i++) {
    if (!trust(chain[i]!, i)) return chain[i]!;
    if (isIP(chain[i + 1]!) === 0) return chain[i]!;
  }
  return chain[chain.length - 1]!;
}

/** What clientAddress answers when the request carries no genuine socket stamp. */
export const UNKNOWN = "unknown";

/**
 * Whether the request came straight from this machine: its socket peer is a loopback address and
 * it carried no forwarding header (a reverse proxy on the same machine would be loopback too).
 * Never decided by headers alone; TRUST_PROXY plays no part.
 */
export function isLocalRequest(req: { headers: Headers }): boolean {
  const peer = socketPeer(req.headers);
  return peer !== null && !peer.forwarded && isLoopbackAddress(peer.address);
}

const loopback = new BlockList();
loopback.addSubnet("127.0.0.0", 8, "ipv4");
loopback.addAddress("::1", "ipv6");

export function isLoopbackAddress(address: string): boolean {
  const a = normalizeAddress(address);
  const family = isIP(a);
  return family !== 0 && loopback.check(a, family === 6 ? "ipv6" : "ipv4");
}

function forwardedFor(headers: Headers): string[] {
  const value = headers.get("x-forwarded-for");
  if (!value) return [];
  return value
    .split(",")
    .map((s) => normalizeAddress(s))
    .filter(Boolean);
}

let cache: { source: string | undefined; trust: Trust | null } | undefined;

function trustedProxies(): Trust | null {
  const source = env().TRUST_PROXY;
  if (cache && cache.source === source) return cache.trust;
  const trust = source === undefined ? null : parseTrustProxy(source);
  cache = { source, trust };
  return trust;
}
