import type { JsonSchema, ModelSchema } from "@/db/schema/models";
import { IMAGE_SIZE_PRESETS } from "@/lib/pricing/image-sizes";

/**
 * The simulator's input and output JSON Schemas by category, shaped like fal's (titles, defaults,
 * `x-fal-order-properties`), so forms, validation and llms.txt treat them like fal's own.
 */
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
          { type: "string", enum: Object.keys(IMAGE_SIZE_PRESETS) },
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

export const SCHEMAS: Record<string, ModelSchema> = {
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
