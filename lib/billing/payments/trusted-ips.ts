import { BlockList, isIP } from "node:net";
import { env } from "@/lib/core/env";

let cache: { source: string; list: BlockList } | undefined;

/** YOOKASSA_TRUSTED_IPS (the provider's published ranges) as a matcher, rebuilt when the setting changes. */
function trusted(): BlockList {
  const source = env().YOOKASSA_TRUSTED_IPS;
  if (cache?.source === source) return cache.list;
  const list = new BlockList();
  for (const entry of source
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean)) {
    const [address, prefix] = entry.split("/");
    const family = isIP(address!) === 6 ? "ipv6" : "ipv4";
    if (prefix === undefined) list.addAddress(address!, family);
    else list.addSubnet(address!, Number(prefix), family);
  }
  cache = { source, list };
  return list;
}

export function isTrustedYookassaAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return false;
  return trusted().check(address, family === 6 ? "ipv6" : "ipv4");
}
