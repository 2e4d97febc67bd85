import { createHash } from "node:crypto";

/** 16 hex characters (64 bits) that decide a piece of media: the same inputs give the same bytes. */
export function seedHex(...parts: unknown[]): string {
  const h = createHash("sha256");
  for (const p of parts) h.update(typeof p === "string" ? p : (JSON.stringify(p) ?? "null")).update("\0");
  return h.digest("hex").slice(0, 16);
}

/** mulberry32: a small deterministic PRNG; floats in [0, 1). */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** mulberry32 seeded from a hex seed (and a salt per use of one seed). */
export function prng(seed: string, salt = 0): () => number {
  const a = (Number.parseInt(seed.slice(0, 8), 16) ^ Math.imul(salt + 1, 0x9e3779b1)) >>> 0;
  return mulberry32(a ^ Number.parseInt(seed.slice(8, 16) || "0", 16));
}
