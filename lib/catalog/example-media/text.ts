import { createHash } from "node:crypto";
import { prng } from "./random";

const WORDS =
  "the a simulated gateway model request image voice signal river morning light quiet city window paper music hands open road small green story time people water clear north evening table".split(
    " ",
  );

export type TranscriptChunk = { timestamp: [number, number]; text: string };

/** A transcript for speech-to-text: sentences decided by the seed, in chunks of about two seconds. */
export function renderTranscript(seed: string): { text: string; chunks: TranscriptChunk[]; durationSeconds: number } {
  const rand = prng(seed, 4);
  const sentences = 2 + Math.floor(rand() * 3);
  const chunks: TranscriptChunk[] = [];
  let clock = 0;
  for (let s = 0; s < sentences; s++) {
    const words = Array.from({ length: 5 + Math.floor(rand() * 6) }, () => WORDS[Math.floor(rand() * WORDS.length)]!);
    words[0] = words[0]!.charAt(0).toUpperCase() + words[0]!.slice(1);
    const text = words.join(" ") + ".";
    const seconds = Math.round(words.length * 0.4 * 100) / 100;
    chunks.push({ timestamp: [Math.round(clock * 100) / 100, Math.round((clock + seconds) * 100) / 100], text });
    clock += seconds + 0.3;
  }
  return { text: chunks.map((c) => c.text).join(" "), chunks, durationSeconds: Math.round(clock * 100) / 100 };
}

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
