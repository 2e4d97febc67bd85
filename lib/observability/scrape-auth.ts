import { createHash, timingSafeEqual } from "node:crypto";
import { env } from "@/lib/core/env";

const digest = (value: string) => createHash("sha256").update(value).digest();

/**
 * Whether an Authorization header carries METRICS_TOKEN as a bearer token. Both sides are hashed
 * first, so the comparison is constant-time whatever the lengths and reveals nothing of the token.
 */
export function authorizeScrape(authorization: string | null): boolean {
  const token = env().METRICS_TOKEN;
  const match = authorization?.match(/^Bearer\s+(\S+)\s*$/i);
  if (!token || !match) return false;
  return timingSafeEqual(digest(match[1]!), digest(token));
}
