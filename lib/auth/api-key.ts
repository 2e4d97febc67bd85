import { createHash, randomBytes } from "node:crypto";
import type { ApiKeyMode } from "@/db/schema";
import { env } from "@/lib/core/env";

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
const RANDOM_LENGTH = 40; // ≈ 238 bits
const KEY_PATTERN = /^([a-z][a-z0-9]{0,15})_(live|test)_([0-9A-Za-z]{32,128})$/;

/** Uniformly random base62 text (also used for prefixed ids such as `key_…`). */
export function base62(length: number): string {
  // Rejection sampling keeps every character equally likely (256 is not a multiple of 62).
  let out = "";
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < 248 && out.length < length) out += BASE62[byte % 62];
    }
  }
  return out;
}

/** SHA-256 is enough for a 238-bit random secret: there is nothing to brute-force. */
export function hashApiKey(key: string): string {
  return createHash("sha256").update(key).digest("hex");
}

export type GeneratedKey = { key: string; hash: string; prefix: string; start: string; mode: ApiKeyMode };

export function generateApiKey(mode: ApiKeyMode, prefix = env().API_KEY_PREFIX): GeneratedKey {
  const key = `${prefix}_${mode}_${base62(RANDOM_LENGTH)}`;
  const keyPrefix = `${prefix}_${mode}`;
  return { key, hash: hashApiKey(key), prefix: keyPrefix, start: key.slice(0, keyPrefix.length + 5), mode };
}

/** Null when the string cannot be one of our keys (answered 401 without a database lookup). */
export function parseApiKey(token: string): { prefix: string; mode: ApiKeyMode } | null {
  const m = KEY_PATTERN.exec(token);
  return m ? { prefix: `${m[1]}_${m[2]}`, mode: m[2] as ApiKeyMode } : null;
}
