import { BlockList, isIP } from "node:net";

/** Whether the hop-th address of the forwarding chain (0: the socket's peer) is a proxy we run. */
export type Trust = (address: string, hop: number) => boolean;

/** TRUST_PROXY → a predicate over (address, hop); throws on a value that is neither form (lib/core/env.ts reports it). */
export function parseTrustProxy(source: string): Trust | null {
  const text = source.trim();
  if (/^\d+$/.test(text)) {
    const hops = Number(text);
    return hops === 0 ? null : (_address, hop) => hop < hops;
  }
  const list = new BlockList();
  for (const entry of text
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean)) {
    const [address = "", prefix, extra] = entry.split("/");
    const family = isIP(address);
    if (family === 0 || extra !== undefined) throw new Error(`"${entry}" is not an IP address or CIDR range`);
    const type = family === 6 ? "ipv6" : "ipv4";
    if (prefix === undefined) {
      list.addAddress(address, type);
      continue;
    }
    const bits = Number(prefix);
    if (!/^\d+$/.test(prefix) || bits > (family === 6 ? 128 : 32)) throw new Error(`"${entry}" has a bad prefix length`);
    list.addSubnet(address, bits, type);
  }
  return (address) => {
    const family = isIP(address);
    return family !== 0 && list.check(address, family === 6 ? "ipv6" : "ipv4");
  };
}
