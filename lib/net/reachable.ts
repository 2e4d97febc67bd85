import { isIP } from "node:net";
import { isPrivateAddress } from "./address";

const PRIVATE_NAMES = /(^|\.)(localhost|local|internal|lan|home\.arpa)$/i;

/** Whether a URL's host is only reachable inside a private network (loopback, RFC 1918, `.local`…). */
export function isPrivateUrl(url: string): boolean {
  let host: string;
  try {
    host = new URL(url).hostname.replace(/^\[|\]$/g, "");
  } catch {
    return true;
  }
  if (isIP(host)) return isPrivateAddress(host);
  return PRIVATE_NAMES.test(host) || !host.includes(".");
}

/**
 * Whether a service at `serviceUrl` can call `targetUrl` back: a public target is reachable from
 * anywhere, a private one only from a service on a private network too (a simulator beside the
 * gateway, not fal's cloud calling a gateway on a laptop).
 */
export const canCallBack = (serviceUrl: string, targetUrl: string): boolean => !isPrivateUrl(targetUrl) || isPrivateUrl(serviceUrl);
