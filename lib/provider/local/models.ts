import type { JsonSchema, ModelSchema } from "@/db/schema/models";
import type { ProviderModel } from "../types";

/**
 * What the simulator can produce, and the catalog it lists. Any endpoint id can be submitted (the
 * simulator stands in for fal); the kind of output is chosen by the category the engine passes,
 * else by this list, else by words in the endpoint id.
 */
export type OutputKind = "image" | "video" | "speech" | "audio" | "transcription" | "embedding" | "voice" | "mesh";

const CATEGORY_KINDS: Record<string, OutputKind> = {
  "text-to-image": "image",
  "image-to-image": "image",
  "text-to-video": "video",
  "image-to-video": "video",
  "video-to-video": "video",
  "text-to-speech": "speech",
  "speech-to-text": "transcription",
  "text-to-audio": "audio",
  "audio-to-audio": "audio",
  music: "audio",
  audio: "audio",
  "voice-cloning": "voice",
  embedding: "embedding",
  embeddings: "embedding",
  "3d": "mesh",
  "image-to-3d": "mesh",
  "text-to-3d": "mesh",
};

const KEYWORDS: [RegExp, OutputKind][] = [
  [/embed/, "embedding"],
  [/whisper|wizper|speech-to-text|transcri|\bstt\b/, "transcription"],
  [/voice-clon|clone/, "voice"],
  [/tts|text-to-speech|speech|voice/, "speech"],
  [/3d|trellis|tripo|mesh/, "mesh"],
  [/video|kling|veo|\bwan\b|luma|ltx|pika|runway|seedance|hailuo/, "video"],
  [/music|audio|sound|song/, "audio"],
];

export function outputKindOf(endpointId: string, category?: string | null): OutputKind {
  const byCategory = category ? CATEGORY_KINDS[category.toLowerCase()] : undefined;
  if (byCategory) return byCategory;
  const known = LOCAL_MODELS.find((m) => m.endpointId === endpointId);
  if (known) return CATEGORY_KINDS[known.category]!;
  const id = endpointId.toLowerCase();
  return KEYWORDS.find(([re]) => re.test(id))?.[1] ?? "image";
}

// --- JSON Schemas, shaped like fal's (x-fal-order-properties, titles, defaults).

export const IMAGE_SIZES = {
  square_hd: { width: 1024, height: 1024 },
  square: { width: 512, height: 512 },
  portrait_4_3: { width: 768, height: 1024 },
  portrait_16_9: { width: 576, height: 1024 },
  landscape_4_3: { width: 1024, height: 768 },
  landscape_16_9: { width: 1024, height: 576 },
} as const;

const file = (extra: Record<string, JsonSchema> = {}): JsonSchema => ({
  type: "object",
  required: ["url"],
  properties: {
    url: { type: "string", format: "uri" },
    content_type: { type: "string" },
    file_name: { type: "string" },
    file_size: { type: "integer" },
    ...extra,
  },
});

const obj = (title: string, properties: Record<string, JsonSchema>, required: string[]): JsonSchema => ({
  title,
  type: "object",
  required,
  properties,
  "x-fal-order-properties": Object.keys(properties),
});

const prompt: JsonSchema = { type: "string", minLength: 1, title: "Prompt", description: "What to generate." };
const imageUrl: JsonSchema = { type: "string", format: "uri", title: "Image URL", description: "Public URL of the source image." };
const audioUrl: JsonSchema = { type: "string", format: "uri", title: "Audio URL", description: "Public URL of the recording." };

const imageInput = (withSource: boolean): JsonSchema =>
  obj(
    withSource ? "ImageToImageInput" : "TextToImageInput",
    {
      prompt,
      ...(withSource
        ? { image_url: imageUrl, strength: { type: "number", minimum: 0, maximum: 1, default: 0.95, title: "Strength" } }
        : {}),
      negative_prompt: { type: "string", default: "", title: "Negative prompt" },
      image_size: {
        title: "Image size",
        default: "square_hd",
        anyOf: [
          { type: "string", enum: Object.keys(IMAGE_SIZES) },
          {
            type: "object",
            required: ["width", "height"],
            properties: { width: { type: "integer", minimum: 16, maximum: 4096 }, height: { type: "integer", minimum: 16, maximum: 4096 } },
          },
        ],
      },
      num_inference_steps: { type: "integer", minimum: 1, maximum: 50, default: 28, title: "Inference steps" },
      guidance_scale: { type: "number", minimum: 0, maximum: 20, default: 3.5, title: "Guidance scale" },
      num_images: { type: "integer", minimum: 1, maximum: 4, default: 1, title: "Number of images" },
      seed: { type: "integer", minimum: 0, maximum: 2147483647, title: "Seed" },
      output_format: { type: "string", enum: ["jpeg", "png"], default: "jpeg", title: "Output format" },
    },
    withSource ? ["prompt", "image_url"] : ["prompt"],
  );

const imageOutput = obj(
  "ImageOutput",
  {
    images: { type: "array", items: file({ width: { type: "integer" }, height: { type: "integer" } }) },
    seed: { type: "integer" },
    has_nsfw_concepts: { type: "array", items: { type: "boolean" } },
    prompt: { type: "string" },
    timings: { type: "object", properties: { inference: { type: "number" } } },
  },
  ["images", "seed"],
);

const videoInput = (withSource: boolean): JsonSchema =>
  obj(
    withSource ? "ImageToVideoInput" : "TextToVideoInput",
    {
      prompt,
      ...(withSource ? { image_url: imageUrl } : {}),
      duration: { type: "string", enum: ["5", "10"], default: "5", title: "Duration (seconds)" },
      aspect_ratio: { type: "string", enum: ["16:9", "9:16", "1:1"], default: "16:9", title: "Aspect ratio" },
      negative_prompt: { type: "string", default: "", title: "Negative prompt" },
      seed: { type: "integer", minimum: 0, title: "Seed" },
    },
    withSource ? ["prompt", "image_url"] : ["prompt"],
  );

const videoOutput = obj(
  "VideoOutput",
  { video: file({ width: { type: "integer" }, height: { type: "integer" }, duration: { type: "number" } }), seed: { type: "integer" } },
  ["video"],
);

const audioFile = file({ duration: { type: "number", description: "Seconds" } });

const SCHEMAS: Record<string, ModelSchema> = {
  "text-to-image": { input: imageInput(false), output: imageOutput },
  "image-to-image": { input: imageInput(true), output: imageOutput },
  "text-to-video": { input: videoInput(false), output: videoOutput },
  "image-to-video": { input: videoInput(true), output: videoOutput },
  "text-to-speech": {
    input: obj(
      "TextToSpeechInput",
      {
        text: { type: "string", minLength: 1, maxLength: 5000, title: "Text" },
        voice_id: { type: "string", default: "Wise_Woman", title: "Voice", description: "A preset voice or a cloned voice id." },
        speed: { type: "number", minimum: 0.5, maximum: 2, default: 1, title: "Speed" },
      },
      ["text"],
    ),
    output: obj("TextToSpeechOutput", { audio: audioFile, duration_ms: { type: "integer" } }, ["audio"]),
  },
  "speech-to-text": {
    input: obj(
      "SpeechToTextInput",
      {
        audio_url: audioUrl,
        task: { type: "string", enum: ["transcribe", "translate"], default: "transcribe", title: "Task" },
        language: { type: "string", title: "Language", description: "ISO 639-1 code; detected when empty." },
      },
      ["audio_url"],
    ),
    output: obj(
      "SpeechToTextOutput",
      {
        text: { type: "string" },
        chunks: {
          type: "array",
          items: {
            type: "object",
            properties: { timestamp: { type: "array", items: { type: "number" }, minItems: 2, maxItems: 2 }, text: { type: "string" } },
          },
        },
        inferred_languages: { type: "array", items: { type: "string" } },
      },
      ["text", "chunks"],
    ),
  },
  "text-to-audio": {
    input: obj(
      "TextToAudioInput",
      { prompt, duration: { type: "number", minimum: 1, maximum: 300, default: 10, title: "Duration (seconds)" } },
      ["prompt"],
    ),
    output: obj("TextToAudioOutput", { audio: audioFile }, ["audio"]),
  },
  "voice-cloning": {
    input: obj(
      "VoiceCloneInput",
      {
        audio_url: { ...audioUrl, description: "5 to 30 seconds of clean speech." },
        name: { type: "string", title: "Name" },
      },
      ["audio_url"],
    ),
    output: obj("VoiceCloneOutput", { custom_voice_id: { type: "string", description: "Use as voice_id in text-to-speech." } }, [
      "custom_voice_id",
    ]),
  },
  embedding: {
    input: obj(
      "EmbeddingInput",
      {
        input: {
          title: "Input",
          anyOf: [
            { type: "string", minLength: 1 },
            { type: "array", items: { type: "string", minLength: 1 }, minItems: 1, maxItems: 100 },
          ],
        },
        dimensions: { type: "integer", minimum: 8, maximum: 4096, default: 768, title: "Dimensions" },
      },
      ["input"],
    ),
    output: obj(
      "EmbeddingOutput",
      {
        embeddings: {
          type: "array",
          items: { type: "object", properties: { index: { type: "integer" }, embedding: { type: "array", items: { type: "number" } } } },
        },
        dimensions: { type: "integer" },
      },
      ["embeddings"],
    ),
  },
  "image-to-3d": {
    input: obj("ImageTo3DInput", { image_url: imageUrl, seed: { type: "integer", minimum: 0, title: "Seed" } }, ["image_url"]),
    output: obj("ImageTo3DOutput", { model_mesh: file(), seed: { type: "integer" } }, ["model_mesh"]),
  },
};

type LocalModel = Omit<ProviderModel, "status" | "thumbnailUrl" | "licenseType"> & { licenseType?: string };

/** The simulator's catalog: fal endpoint ids, so a catalog seeded from fal runs on it unchanged. */
export const LOCAL_MODELS: LocalModel[] = [
  m("fal-ai/flux/dev", "FLUX.1 [dev]", "text-to-image", "A 12B flow transformer for high-quality images from text.", "0.025", "megapixel"),
  m(
    "fal-ai/flux/schnell",
    "FLUX.1 [schnell]",
    "text-to-image",
    "The fastest FLUX model: good images in 1 to 4 steps.",
    "0.003",
    "megapixel",
  ),
  m(
    "fal-ai/flux/dev/image-to-image",
    "FLUX.1 [dev] image-to-image",
    "image-to-image",
    "Restyles or edits a source image following a prompt.",
    "0.03",
    "megapixel",
  ),
  m(
    "fal-ai/kling-video/v2.1/standard/text-to-video",
    "Kling 2.1 text-to-video",
    "text-to-video",
    "Five- or ten-second clips from a text prompt.",
    "0.05",
    "second",
  ),
  m(
    "fal-ai/kling-video/v2.1/standard/image-to-video",
    "Kling 2.1 image-to-video",
    "image-to-video",
    "Animates a still image into a short clip.",
    "0.05",
    "second",
  ),
  m(
    "fal-ai/minimax/speech-02-hd",
    "MiniMax Speech-02 HD",
    "text-to-speech",
    "Natural speech in many voices, including cloned ones.",
    "0.1",
    "1k_chars",
  ),
  m("fal-ai/wizper", "Wizper", "speech-to-text", "Fast Whisper v3 transcription with timestamps.", "0.0005", "second"),
  m("fal-ai/stable-audio", "Stable Audio", "text-to-audio", "Sound effects and short music from a text prompt.", "0.02", "request"),
  m("fal-ai/minimax-music", "MiniMax Music", "text-to-audio", "Songs and instrumentals from a description.", "0.035", "request"),
  m(
    "fal-ai/minimax/voice-clone",
    "MiniMax voice clone",
    "voice-cloning",
    "Clones a voice from 5 to 30 seconds of speech.",
    "1.5",
    "request",
  ),
  m("fal-ai/trellis", "Trellis", "image-to-3d", "A textured 3D model (GLB) from one image.", "0.02", "request"),
  m("fal-ai/text-embedding", "Text embedding", "embedding", "Dense vectors for search and clustering.", "0.00002", "1k_chars"),
];

function m(endpointId: string, displayName: string, category: string, description: string, unitPrice: string, unit: string): LocalModel {
  return { endpointId, displayName, category, description, tags: ["simulated"], price: { unitPrice, unit, currency: "USD" } };
}

/** The JSON Schemas for an endpoint: its own when listed, otherwise those of the kind it would produce. */
export function localModelSchema(endpointId: string, category?: string | null): ModelSchema {
  const known = LOCAL_MODELS.find((x) => x.endpointId === endpointId);
  if (known) return SCHEMAS[known.category]!;
  if (category && SCHEMAS[category]) return SCHEMAS[category]!;
  const byKind: Record<OutputKind, string> = {
    image: "text-to-image",
    video: "text-to-video",
    speech: "text-to-speech",
    audio: "text-to-audio",
    transcription: "speech-to-text",
    embedding: "embedding",
    voice: "voice-cloning",
    mesh: "image-to-3d",
  };
  return SCHEMAS[byKind[outputKindOf(endpointId, category)]]!;
}
