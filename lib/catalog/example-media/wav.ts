import { prng } from "./random";

export type AudioStyle = "music" | "speech";
export const WAV_SAMPLE_RATE = 22_050;

/**
 * A mono 16-bit PCM WAV of exactly `durationMs`: a pentatonic melody (`music`) or syllable-like
 * bursts with pauses (`speech`), both decided by the seed.
 */
export function renderWav(seed: string, durationMs: number, style: AudioStyle): Uint8Array {
  const samples = Math.round((durationMs / 1000) * WAV_SAMPLE_RATE);
  const out = Buffer.alloc(44 + samples * 2);
  out.write("RIFF", 0, "ascii");
  out.writeUInt32LE(36 + samples * 2, 4);
  out.write("WAVE", 8, "ascii");
  out.write("fmt ", 12, "ascii");
  out.writeUInt32LE(16, 16); // PCM header size
  out.writeUInt16LE(1, 20); // PCM
  out.writeUInt16LE(1, 22); // mono
  out.writeUInt32LE(WAV_SAMPLE_RATE, 24);
  out.writeUInt32LE(WAV_SAMPLE_RATE * 2, 28); // byte rate
  out.writeUInt16LE(2, 32); // block align
  out.writeUInt16LE(16, 34); // bits per sample
  out.write("data", 36, "ascii");
  out.writeUInt32LE(samples * 2, 40);

  const rand = prng(seed, style === "music" ? 1 : 2);
  const noteSamples = Math.round(WAV_SAMPLE_RATE * (style === "music" ? 0.25 : 0.18));
  const scale = [261.63, 293.66, 329.63, 392.0, 440.0, 523.25];
  let freq = 0;
  let amp = 0;
  let phase = 0;
  for (let i = 0; i < samples; i++) {
    const pos = i % noteSamples;
    if (pos === 0) {
      if (style === "music") {
        freq = scale[Math.floor(rand() * scale.length)]!;
        amp = 0.35;
      } else {
        const pause = rand() < 0.2;
        freq = 110 + rand() * 120;
        amp = pause ? 0 : 0.3;
      }
    }
    // A short attack and release per note keeps it free of clicks.
    const edge = Math.min(1, pos / 200, (noteSamples - pos) / 200);
    phase += (2 * Math.PI * freq) / WAV_SAMPLE_RATE;
    const tone = style === "music" ? Math.sin(phase) : Math.sin(phase) * 0.6 + Math.sin(phase * 2.7) * 0.3 + Math.sin(phase * 4.1) * 0.1;
    out.writeInt16LE(Math.round(tone * amp * edge * 32767), 44 + i * 2);
  }
  return out;
}
