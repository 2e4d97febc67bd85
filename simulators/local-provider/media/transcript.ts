import { prng } from "@/lib/catalog/example-media/random";

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
