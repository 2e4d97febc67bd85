import sharp from "sharp";
import { processWide } from "@/lib/core/process-wide";
import { renderImage } from "./example-media/image";
import { prng, seedHex } from "./example-media/random";
import { renderEmbedding } from "./example-media/text";
import { renderWav, WAV_SAMPLE_RATE, type AudioStyle } from "./example-media/wav";
import { SizedLru } from "@/lib/core/sized-lru";
import { outputKindOf, type OutputKind } from "./example-media/output-kind";
export { exampleImageUrl, renderedExamplePath } from "./example-url";

/**
 * Every model shows an example output on its catalog card and page. An admin may set one (the
 * model's `thumbnailUrl`: any http(s) URL or a path of this app); otherwise the app renders one
 * with the media renderers of ./example-media (the local simulator renders with them too) for the
 * model's kind of output — a picture for image models, a poster frame for video, a waveform for
 * audio and speech, a vector plot for embeddings, a wireframe for 3D — served at
 * `/examples/{modelId}` and cached, so the catalog needs no network. The seed catalog's `/thumbnails/*.svg` are placeholders, not examples.
 */
export const EXAMPLE_WIDTH = 480;
export const EXAMPLE_HEIGHT = 300;
const AUDIO_MS = 4_000;

/** What a model's example is, as a media kind the page can play beside the picture. */
export type ExampleKind = "image" | "video" | "audio" | "text" | "embedding" | "mesh";
export function exampleKindOf(modelId: string, category: string): ExampleKind {
  const kind: OutputKind = outputKindOf(modelId, category);
  if (kind === "speech" || kind === "audio" || kind === "voice") return "audio";
  if (kind === "transcription") return "text";
  return kind;
}

const escapeXml = (s: string) => s.replace(/[<>&"]/g, (c) => `&#${c.charCodeAt(0)};`);

/** Two colours from the seed, dark enough for white marks on them. */
function palette(seed: string): [string, string] {
  const rand = prng(seed, 7);
  const hsl = () => `hsl(${Math.round(rand() * 360)}, ${55 + Math.round(rand() * 25)}%, ${22 + Math.round(rand() * 14)}%)`;
  return [hsl(), hsl()];
}

function svgFrame(seed: string, body: string): string {
  const [a, b] = palette(seed);
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${EXAMPLE_WIDTH}" height="${EXAMPLE_HEIGHT}" viewBox="0 0 ${EXAMPLE_WIDTH} ${EXAMPLE_HEIGHT}">
<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${escapeXml(a)}"/><stop offset="1" stop-color="${escapeXml(b)}"/></linearGradient></defs>
<rect width="100%" height="100%" fill="url(#g)"/>${body}</svg>`;
}

/** A stretch of a 16-bit mono WAV (from `fromMs`, `points` samples evenly spaced over `spanMs`), −1 to 1. */
export function wavTrace(wav: Uint8Array, fromMs: number, spanMs: number, points: number): number[] {
  const samples = new Int16Array(wav.buffer.slice(wav.byteOffset + 44, wav.byteOffset + wav.byteLength));
  const first = Math.floor((fromMs / 1000) * WAV_SAMPLE_RATE);
  const span = (spanMs / 1000) * WAV_SAMPLE_RATE;
  return Array.from(
    { length: points },
    (_, i) => (samples[Math.min(samples.length - 1, first + Math.floor((i * span) / points))] ?? 0) / 32768,
  );
}

/** The sound as an oscilloscope shows it: a few notes (or syllables) of the simulator's audio. */
function waveformSvg(seed: string, style: AudioStyle, lines: boolean): string {
  const trace = wavTrace(renderWav(seed, AUDIO_MS, style), 900, style === "music" ? 40 : 60, 432);
  const max = Math.max(0.05, ...trace.map(Math.abs));
  const mid = lines ? 100 : EXAMPLE_HEIGHT / 2;
  const amp = lines ? 70 : 110;
  const d = trace.map((v, i) => `${i === 0 ? "M" : "L"}${(24 + i).toFixed(0)} ${(mid - (v / max) * amp).toFixed(1)}`).join("");
  const path = `<path d="${d}" fill="none" stroke="#fff" stroke-width="2.5" stroke-linejoin="round" stroke-opacity=".95"/>`;
  const axis = `<line x1="24" x2="${EXAMPLE_WIDTH - 24}" y1="${mid}" y2="${mid}" stroke="#fff" stroke-opacity=".3"/>`;
  // A transcript's example: the sound above, lines of text below.
  const rand = prng(seed, 3);
  const text = lines
    ? [0, 1, 2]
        .map(
          (i) =>
            `<rect x="24" y="${205 + i * 26}" width="${Math.round(200 + rand() * 230)}" height="11" rx="5.5" fill="#fff" fill-opacity=".75"/>`,
        )
        .join("")
    : "";
  return svgFrame(seed, `${axis}${path}${text}`);
}

function embeddingSvg(seed: string, modelId: string): string {
  const values = renderEmbedding(`${modelId} — an example sentence, embedded as a vector for semantic search`, 48);
  const max = Math.max(...values.map(Math.abs), 1e-6);
  const step = (EXAMPLE_WIDTH - 48) / values.length;
  const mid = EXAMPLE_HEIGHT / 2;
  const bars = values
    .map((v, i) => {
      const h = (Math.abs(v) / max) * 120;
      return `<rect x="${(24 + i * step).toFixed(1)}" y="${(v >= 0 ? mid - h : mid).toFixed(1)}" width="${(step * 0.7).toFixed(1)}" height="${Math.max(1, h).toFixed(1)}"/>`;
    })
    .join("");
  return svgFrame(
    seed,
    `<line x1="24" x2="${EXAMPLE_WIDTH - 24}" y1="${mid}" y2="${mid}" stroke="#fff" stroke-opacity=".5"/><g fill="#fff" fill-opacity=".9">${bars}</g>`,
  );
}

const MESH = `<g fill="none" stroke="#fff" stroke-width="4" stroke-linejoin="round" stroke-opacity=".9" transform="translate(240 150)">
<path d="M0-95 82-48V48L0 95-82 48V-48Z"/><path d="M-82-48 0 0 82-48M0 0V95"/><path d="M-41-71 41-24V71M41-71-41-24V71" stroke-opacity=".35" stroke-width="2"/></g>`;
const PLAY = `<circle cx="240" cy="150" r="44" fill="#000" fill-opacity=".45"/><path d="M226 126v48l40-24z" fill="#fff"/>`;

const overlay = async (base: Uint8Array, svg: string) =>
  sharp(base)
    .composite([
      { input: Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="${EXAMPLE_WIDTH}" height="${EXAMPLE_HEIGHT}">${svg}</svg>`) },
    ])
    .jpeg({ quality: 82 })
    .toBuffer();

async function render(modelId: string, category: string): Promise<Uint8Array> {
  const seed = seedHex("catalog-example", modelId);
  const picture = () => renderImage(seed, EXAMPLE_WIDTH, EXAMPLE_HEIGHT, 0, "jpeg");
  const raster = (svg: string) => sharp(Buffer.from(svg)).jpeg({ quality: 82 }).toBuffer();
  switch (exampleKindOf(modelId, category)) {
    case "image":
      return picture();
    case "video":
      return overlay(await picture(), PLAY);
    case "mesh":
      return overlay(await picture(), MESH);
    case "audio":
      return raster(waveformSvg(seed, outputKindOf(modelId, category) === "audio" ? "music" : "speech", false));
    case "text":
      return raster(waveformSvg(seed, "speech", true));
    case "embedding":
      return raster(embeddingSvg(seed, modelId));
  }
}

// Process-wide: the catalog page and the /examples route may be separate server chunks.
const cache = processWide("catalog.examples", () => new SizedLru<Uint8Array>(32 * 1024 * 1024, (b) => b.byteLength));

/** The rendered example picture of a model (JPEG), made once per model and category. */
export function renderedExample(modelId: string, category: string): Promise<Uint8Array> {
  return cache.getOrCreate(`${modelId}\0${category}\0image`, () => render(modelId, category));
}

/** The example's sound for audio models: the simulator's WAV for this model (4 s). */
export function renderedExampleAudio(modelId: string, category: string): Uint8Array {
  const style: AudioStyle = outputKindOf(modelId, category) === "audio" ? "music" : "speech";
  return renderWav(seedHex("catalog-example", modelId), AUDIO_MS, style);
}
