import { createHash } from "node:crypto";

/**
 * An embedding by feature hashing: each word and character trigram adds ±1 to a hashed slot, then
 * the vector is L2-normalised. Deterministic, and texts that share words come out close in
 * cosine similarity, so search demos behave plausibly.
 */
export function renderEmbedding(text: string, dimensions: number): number[] {
  const v = new Float64Array(dimensions);
  const normalized = text.toLowerCase();
  const features = [...(normalized.match(/[\p{L}\p{N}]+/gu) ?? [])];
  const padded = ` ${normalized} `;
  for (let i = 0; i + 3 <= padded.length; i++) features.push(`#${padded.slice(i, i + 3)}`);
  for (const f of features) {
    const h = createHash("md5").update(f).digest();
    const slot = h.readUInt32LE(0) % dimensions;
    v[slot]! += h[4]! & 1 ? 1 : -1;
  }
  let norm = 0;
  for (const x of v) norm += x * x;
  norm = Math.sqrt(norm) || 1;
  return Array.from(v, (x) => Math.round((x / norm) * 1e6) / 1e6);
}
