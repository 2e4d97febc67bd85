import { isIP } from "node:net";
import { isAddressAllowed, type NetPolicy } from "./address";
import { OutboundError } from "./errors";
import { guardedLookup, type Resolver } from "./lookup";
import { defaultPolicy, parseOutboundUrl } from "./safe-fetch";

/**
 * Checks a URL before it is accepted as input (a `webhook_url`, an `image_url`), so the caller can
 * answer 400 at once instead of failing later. It is advice, not protection: DNS may change
 * before the fetch, which is why safeFetch checks again at connect time.
 */
export async function checkOutboundUrl(input: string | URL, options: { policy?: NetPolicy; resolver?: Resolver } = {}): Promise<URL> {
  const url = parseOutboundUrl(input);
  const policy = options.policy ?? defaultPolicy();
  const host = url.hostname.replace(/^\[|\]$/g, "");
  if (isIP(host)) {
    if (!isAddressAllowed(host, policy)) throw new OutboundError("blocked_address", `${host} is a private or reserved address`);
    return url;
  }
  const lookup = guardedLookup(policy, options.resolver);
  await new Promise<void>((resolve, reject) => lookup(host, { all: true }, (err) => (err ? reject(err) : resolve())));
  return url;
}
