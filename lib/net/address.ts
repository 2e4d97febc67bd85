import { BlockList, isIPv4, isIPv6 } from "node:net";

/**
 * Which IP addresses an outbound fetch may connect to. Everything that is not globally routable
 * is refused: a URL supplied by a user or a provider must never reach the service's own network
 * (loopback, the cloud metadata endpoint at 169.254.169.254, private ranges, …).
 */
const V4_BLOCKED: [string, number][] = [
  ["0.0.0.0", 8], // "this network"
  ["10.0.0.0", 8], // private
  ["100.64.0.0", 10], // carrier-grade NAT
  ["127.0.0.0", 8], // loopback
  ["169.254.0.0", 16], // link-local (cloud metadata)
  ["172.16.0.0", 12], // private
  ["192.0.0.0", 24], // IETF protocol assignments
  ["192.0.2.0", 24], // documentation
  ["192.88.99.0", 24], // 6to4 relay anycast
  ["192.168.0.0", 16], // private
  ["198.18.0.0", 15], // benchmarking
  ["198.51.100.0", 24], // documentation
  ["203.0.113.0", 24], // documentation
  ["224.0.0.0", 4], // multicast
  ["240.0.0.0", 4], // reserved, and 255.255.255.255 broadcast
];

const V6_BLOCKED: [string, number][] = [
  ["::", 96], // unspecified, loopback and the deprecated IPv4-compatible form
  ["64:ff9b:1::", 48], // local-use NAT64
  ["100::", 64], // discard-only
  ["2001::", 23], // IETF protocol assignments, including Teredo
  ["2001:db8::", 32], // documentation
  ["fc00::", 7], // unique-local
  ["fe80::", 10], // link-local
  ["fec0::", 10], // site-local (deprecated)
  ["ff00::", 8], // multicast
];

const blocked = new BlockList();
for (const [net, prefix] of V4_BLOCKED) blocked.addSubnet(net, prefix, "ipv4");
for (const [net, prefix] of V6_BLOCKED) blocked.addSubnet(net, prefix, "ipv6");

/** IPv6 text → 16 bytes (handles `::`, an embedded dotted IPv4 tail and a `%zone`). */
export function ipv6Bytes(address: string): Uint8Array | null {
  const text = address.replace(/^\[|\]$/g, "").split("%")[0]!;
  if (!isIPv6(text)) return null;
  let head = text;
  const tail: number[] = [];
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const parts = dotted[1]!.split(".").map(Number);
    tail.push((parts[0]! << 8) | parts[1]!, (parts[2]! << 8) | parts[3]!);
    head = text.slice(0, -dotted[1]!.length);
    if (head.endsWith(":") && !head.endsWith("::")) head = head.slice(0, -1);
  }
  const [left, right] = head.includes("::") ? head.split("::") : [head, undefined];
  const parse = (s: string | undefined) =>
    s
      ? s
          .split(":")
          .filter(Boolean)
          .map((h) => parseInt(h, 16))
      : [];
  const l = parse(left);
  const r = [...parse(right), ...tail];
  const groups = right === undefined ? [...l, ...tail] : [...l, ...new Array(8 - l.length - r.length).fill(0), ...r];
  if (groups.length !== 8) return null;
  const bytes = new Uint8Array(16);
  groups.forEach((g, i) => {
    bytes[i * 2] = g >> 8;
    bytes[i * 2 + 1] = g & 0xff;
  });
  return bytes;
}

const v4 = (b: Uint8Array, at: number) => `${b[at]}.${b[at + 1]}.${b[at + 2]}.${b[at + 3]}`;

/**
 * The IPv4 address an IPv6 address stands for, when it embeds one that a router would reach:
 * IPv4-mapped (::ffff:a.b.c.d), NAT64 (64:ff9b::/96) and 6to4 (2002::/16).
 */
export function embeddedIPv4(bytes: Uint8Array): string | null {
  const zero = (from: number, to: number) => bytes.subarray(from, to).every((x) => x === 0);
  if (zero(0, 10) && bytes[10] === 0xff && bytes[11] === 0xff) return v4(bytes, 12);
  if (bytes[0] === 0x00 && bytes[1] === 0x64 && bytes[2] === 0xff && bytes[3] === 0x9b && zero(4, 12)) return v4(bytes, 12);
  if (bytes[0] === 0x20 && bytes[1] === 0x02) return v4(bytes, 2);
  return null;
}

/** True when the address is not globally routable (or not an IP address at all). */
export function isPrivateAddress(address: string): boolean {
  const text = address.replace(/^\[|\]$/g, "");
  if (isIPv4(text)) return blocked.check(text, "ipv4");
  const bytes = ipv6Bytes(text);
  if (!bytes) return true;
  const inner = embeddedIPv4(bytes);
  if (inner) return blocked.check(inner, "ipv4");
  return blocked.check(text.split("%")[0]!, "ipv6");
}

/** Where outbound fetches may go. */
export type NetPolicy = {
  /** Development only (ALLOW_PRIVATE_URLS): any address is allowed. */
  allowPrivate?: boolean;
  /** Addresses or CIDRs allowed even though private (e.g. a known internal host). */
  allow?: string[];
};

function allowList(entries: string[]): BlockList {
  const list = new BlockList();
  for (const entry of entries) {
    const [net, prefix] = entry.split("/");
    const type = isIPv4(net!) ? "ipv4" : "ipv6";
    if (prefix !== undefined) list.addSubnet(net!, Number(prefix), type);
    else list.addAddress(net!, type);
  }
  return list;
}

const allowCache = new WeakMap<string[], BlockList>();

export function isAddressAllowed(address: string, policy: NetPolicy): boolean {
  if (policy.allowPrivate) return true;
  if (!isPrivateAddress(address)) return true;
  if (!policy.allow?.length) return false;
  let list = allowCache.get(policy.allow);
  if (!list) allowCache.set(policy.allow, (list = allowList(policy.allow)));
  const text = address.replace(/^\[|\]$/g, "").split("%")[0]!;
  return list.check(text, isIPv4(text) ? "ipv4" : "ipv6");
}
