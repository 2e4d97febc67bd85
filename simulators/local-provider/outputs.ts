import { brand } from "@/lib/core/brand";
import type { ModelErrorDetail } from "@/lib/provider/errors";
import { renderEmbedding } from "@/lib/catalog/example-media/text";
import { renderTranscript } from "./media/transcript";
import { mp4FrameCount, VIDEO_SIZES } from "./media/mp4";
import { seedHex } from "@/lib/catalog/example-media/random";
import { contentTypeOf, fileNameOf, LIMITS, renderMedia, signedMediaUrl, type MediaLinkIssuer, type MediaSpec } from "./media-url";
import { DEFAULT_IMAGE_SIZE, IMAGE_SIZE_PRESETS } from "@/lib/pricing/image-sizes";
import { outputKindOf } from "./models";

/**
 * The simulator's output for a request: a pure function of what was submitted, so it is the same
 * before and after a restart, on every instance. Input the model would refuse gives a 422 with
 * fal's `detail` shape. Media sizes are real: the bytes are rendered (and cached) here.
 */
export type OutputRequest = {
  providerRequestId: string;
  endpointId: string;
  category: string | null;
  input: Record<string, unknown>;
  /** Unix seconds when the media links stop working. */
  linksExpireAt: number;
  inferenceMs: number;
  /** Who signs the media links (default: the app's simulator under APP_URL). */
  links?: MediaLinkIssuer;
};

export type BuiltOutput = { ok: true; output: Record<string, unknown> } | { ok: false; status: number; detail: ModelErrorDetail[] };

/** What a `[fail:generation]` request ends with: the model's 422 with fal's `detail`. */
export function simulatedModelFailure(errorType: string | null): BuiltOutput {
  return {
    ok: false,
    status: 422,
    detail: [
      {
        loc: ["body", "prompt"],
        msg: "The model could not generate an output (simulated failure)",
        type: errorType ?? "simulated_failure",
      },
    ],
  };
}

class Invalid extends Error {
  constructor(
    readonly field: string,
    message: string,
    readonly type = "value_error",
  ) {
    super(message);
  }
}
const invalidInputs = brand<Invalid>("local-invalid-input");
invalidInputs.mark(Invalid);
const isInvalid = invalidInputs.is;

const str = (v: unknown) => (typeof v === "string" ? v : undefined);
const int = (v: unknown) => (typeof v === "number" && Number.isInteger(v) ? v : undefined);

export async function buildOutput(req: OutputRequest): Promise<BuiltOutput> {
  try {
    switch (outputKindOf(req.endpointId, req.category)) {
      case "image":
        return { ok: true, output: await images(req) };
      case "video":
        return { ok: true, output: await video(req) };
      case "speech":
        return { ok: true, output: await speech(req) };
      case "audio":
        return { ok: true, output: await audio(req) };
      case "transcription":
        return { ok: true, output: transcription(req) };
      case "embedding":
        return { ok: true, output: embeddings(req) };
      case "voice":
        return { ok: true, output: voice(req) };
      case "mesh":
        return { ok: true, output: await mesh(req) };
    }
  } catch (err) {
    if (!isInvalid(err)) throw err;
    return { ok: false, status: 422, detail: [{ loc: ["body", err.field], msg: err.message, type: err.type }] };
  }
}

async function fileOf(spec: MediaSpec, req: OutputRequest) {
  const { bytes } = await renderMedia(spec);
  return {
    url: signedMediaUrl(spec, req.linksExpireAt, req.links),
    content_type: contentTypeOf(spec),
    file_name: fileNameOf(spec),
    file_size: bytes.byteLength,
  };
}

/** The seed the model reports: the caller's, or one derived from the prompt (so output is stable). */
function seedOf(input: Record<string, unknown>, ...parts: unknown[]): number {
  return int(input.seed) ?? Number.parseInt(seedHex("seed", ...parts).slice(0, 8), 16) % 2147483647;
}

function imageSize(input: Record<string, unknown>): { width: number; height: number } {
  const size = input.image_size;
  if (typeof size === "string") {
    const known = Object.hasOwn(IMAGE_SIZE_PRESETS, size) ? IMAGE_SIZE_PRESETS[size] : undefined;
    if (!known) throw new Invalid("image_size", `Input should be one of ${Object.keys(IMAGE_SIZE_PRESETS).join(", ")}`, "enum");
    return known;
  }
  if (size && typeof size === "object") {
    const { width, height } = size as { width?: unknown; height?: unknown };
    const { min, max } = LIMITS.imageSide;
    if (!int(width) || !int(height) || int(width)! < min || int(height)! < min || int(width)! > max || int(height)! > max) {
      throw new Invalid("image_size", `width and height must be integers from ${min} to ${max}`);
    }
    return { width: width as number, height: height as number };
  }
  const ratio = /^(\d+):(\d+)$/.exec(str(input.aspect_ratio) ?? "");
  if (ratio) {
    // About one megapixel, sides rounded to multiples of 64 (as diffusion models do).
    const r = Number(ratio[1]) / Number(ratio[2]);
    const round = (x: number) => Math.min(LIMITS.imageSide.max, Math.max(64, Math.round(x / 64) * 64));
    return { width: round(Math.sqrt(1_048_576 * r)), height: round(Math.sqrt(1_048_576 / r)) };
  }
  return DEFAULT_IMAGE_SIZE;
}

async function images(req: OutputRequest) {
  const { input } = req;
  const prompt = str(input.prompt) ?? "";
  const { width, height } = imageSize(input);
  const count = input.num_images === undefined ? 1 : int(input.num_images);
  if (!count || count < 1 || count > 4) throw new Invalid("num_images", "Input should be between 1 and 4", "less_than_equal");
  const format = str(input.output_format) === "png" ? "png" : "jpeg";
  const seed = seedOf(input, req.endpointId, prompt);
  const hex = seedHex(req.endpointId, prompt, seed, input.negative_prompt ?? "", input.image_url ?? "");
  const files = await Promise.all(
    Array.from({ length: count }, async (_, index) => ({
      ...(await fileOf({ kind: "image", seed: hex, width, height, index, format }, req)),
      width,
      height,
    })),
  );
  return {
    images: files,
    seed,
    has_nsfw_concepts: files.map(() => false),
    prompt,
    timings: { inference: req.inferenceMs / 1000 },
  };
}

function seconds(value: unknown, field: string, fallback: number, maxMs: number): number {
  // fal models take "5", "5s" or 5.
  const raw =
    value === undefined || value === null
      ? fallback
      : typeof value === "number"
        ? value
        : Number(/^\s*(\d+(?:\.\d+)?)\s*s?\s*$/.exec(String(value))?.[1]);
  const ms = Math.round(raw * 1000);
  if (!Number.isFinite(ms) || ms < 100 || ms > maxMs) throw new Invalid(field, `Duration must be between 1 and ${maxMs / 1000} seconds`);
  return ms;
}

async function video(req: OutputRequest) {
  const { input } = req;
  const requested = seconds(input.duration, "duration", 5, LIMITS.videoMs.max);
  const frames = mp4FrameCount(requested);
  const durationMs = Math.max(LIMITS.videoMs.min, Math.round((frames * 1000) / 12));
  const ratio = str(input.aspect_ratio) ?? "16:9";
  const size = VIDEO_SIZES[ratio as keyof typeof VIDEO_SIZES];
  if (!size) throw new Invalid("aspect_ratio", "Input should be '16:9', '9:16' or '1:1'", "enum");
  const seed = seedOf(input, req.endpointId, input.prompt ?? "", input.image_url ?? "");
  const spec: MediaSpec = { kind: "video", seed: seedHex(req.endpointId, seed), ...size, durationMs };
  return { video: { ...(await fileOf(spec, req)), ...size, duration: durationMs / 1000 }, seed };
}

async function speech(req: OutputRequest) {
  const text = str(req.input.text) ?? str(req.input.prompt);
  if (!text?.trim()) throw new Invalid("text", "Field required", "missing");
  // About 15 characters a second, as a narrator reads.
  const durationMs = Math.min(LIMITS.audioMs.max, Math.max(500, Math.round((text.length / 15) * 1000)));
  const spec: MediaSpec = { kind: "audio", seed: seedHex(req.endpointId, text, req.input.voice_id ?? ""), style: "speech", durationMs };
  return { audio: { ...(await fileOf(spec, req)), duration: durationMs / 1000 }, duration_ms: durationMs };
}

async function audio(req: OutputRequest) {
  const { input } = req;
  const durationMs = seconds(input.duration ?? input.seconds_total, "duration", 10, LIMITS.audioMs.max);
  const spec: MediaSpec = {
    kind: "audio",
    seed: seedHex(req.endpointId, input.prompt ?? "", seedOf(input, input.prompt ?? "")),
    style: "music",
    durationMs,
  };
  return { audio: { ...(await fileOf(spec, req)), duration: durationMs / 1000 } };
}

function transcription(req: OutputRequest) {
  const url = str(req.input.audio_url);
  if (!url) throw new Invalid("audio_url", "Field required", "missing");
  const language = str(req.input.language) || "en";
  const { text, chunks } = renderTranscript(seedHex(url, language, req.input.task ?? "transcribe"));
  return { text, chunks, inferred_languages: [language] };
}

function embeddings(req: OutputRequest) {
  const raw = req.input.input ?? req.input.text ?? req.input.prompt;
  const texts = typeof raw === "string" ? [raw] : Array.isArray(raw) && raw.every((t) => typeof t === "string") ? (raw as string[]) : null;
  if (!texts || texts.length === 0 || texts.length > 100) throw new Invalid("input", "Expected a string or 1 to 100 strings");
  const dimensions = req.input.dimensions === undefined ? 768 : int(req.input.dimensions);
  if (!dimensions || dimensions < 8 || dimensions > 4096) throw new Invalid("dimensions", "Input should be between 8 and 4096");
  return { embeddings: texts.map((t, index) => ({ index, embedding: renderEmbedding(t, dimensions) })), dimensions };
}

function voice(req: OutputRequest) {
  const url = str(req.input.audio_url);
  if (!url) throw new Invalid("audio_url", "Field required", "missing");
  return { custom_voice_id: `sim_voice_${seedHex(url, req.input.name ?? "")}` };
}

async function mesh(req: OutputRequest) {
  const source = str(req.input.image_url) ?? str(req.input.prompt);
  if (!source) throw new Invalid("image_url", "Field required", "missing");
  const seed = seedOf(req.input, source);
  return { model_mesh: await fileOf({ kind: "mesh", seed: seedHex(req.endpointId, source, seed) }, req), seed };
}
