/**
 * Outbound HTTP for URLs that users or providers supply. Every such fetch goes through
 * `safeFetch`; nothing in lib/ should call `fetch` on a URL it did not build itself.
 */
export { isPrivateAddress, isAddressAllowed, type NetPolicy } from "./address";
export { checkOutboundUrl } from "./check-url";
export { OutboundError, isOutboundError, type OutboundErrorCode } from "./errors";
export type { Resolver } from "./lookup";
export { safeFetch, parseOutboundUrl, type SafeFetchOptions, type SafeResponse } from "./safe-fetch";
