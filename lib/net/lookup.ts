import dns, { type LookupAddress } from "node:dns";
import type { LookupFunction } from "node:net";
import { isAddressAllowed, type NetPolicy } from "./address";
import { OutboundError } from "./errors";

/** Resolves a host name to every address it has (dns.lookup's signature with `all: true`). */
export type Resolver = (hostname: string, callback: (err: Error | null, addresses: LookupAddress[]) => void) => void;

const systemResolver: Resolver = (hostname, callback) =>
  dns.lookup(hostname, { all: true, verbatim: true }, (err, addresses) => callback(err, addresses ?? []));

/**
 * A `lookup` for http.request that resolves the host once, drops every address the policy
 * refuses, and hands the socket only the addresses it checked. The connection therefore goes to
 * an address that was verified: there is no second resolution an attacker's DNS could answer
 * differently (DNS rebinding).
 */
export function guardedLookup(policy: NetPolicy, resolver: Resolver = systemResolver): LookupFunction {
  return (hostname, options, callback) => {
    resolver(hostname, (err, addresses) => {
      if (err) {
        callback(new OutboundError("dns_failure", `Cannot resolve ${hostname}`), "", 0);
        return;
      }
      const family = options.family === 4 || options.family === 6 ? options.family : 0;
      const usable = addresses.filter((a) => (family === 0 || a.family === family) && isAddressAllowed(a.address, policy));
      if (usable.length === 0) {
        const reason = addresses.length ? "resolves only to private or reserved addresses" : "has no address";
        callback(new OutboundError(addresses.length ? "blocked_address" : "dns_failure", `${hostname} ${reason}`), "", 0);
        return;
      }
      if (options.all) (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, usable);
      else callback(null, usable[0]!.address, usable[0]!.family);
    });
  };
}
