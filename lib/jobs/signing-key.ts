import { createHash } from "node:crypto";

/**
 * The bearer form of a signing key for Inngest's APIs (SDK_SPEC 4.1.4): the `signkey-<env>-`
 * prefix kept, the hex key replaced by the SHA-256 of its bytes. The raw key never leaves.
 */
export function hashSigningKey(signingKey: string): string {
  const prefix = /^signkey-\w+-/.exec(signingKey)?.[0] ?? "";
  const key = signingKey.slice(prefix.length);
  return `${prefix}${createHash("sha256").update(Buffer.from(key, "hex")).digest("hex")}`;
}
