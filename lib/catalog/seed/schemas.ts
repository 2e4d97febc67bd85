import type { JsonSchema, ModelSchema } from "@/db/schema/models";
import { IMAGE_SIZE_PRESETS } from "@/lib/pricing/image-sizes";

/**
 * Input/output JSON Schemas of the seed catalog, in the shape fal publishes for its endpoints
 * (JSON Schema 2020-12 subset, `x-fal-order-properties` for the field order, which jsonb does not
 * keep). Builders keep the 50-odd models consistent.
 */
type Props = Record<string, JsonSchema>;

const obj = (properties: Props, required: string[]): JsonSchema => ({
  type: "object",
  properties,
  required,
  "x-fal-order-properties": Object.keys(properties),
});

// ---- common fields -------------------------------------------------------------------------
const prompt = (description = "The prompt to generate from."): JsonSchema => ({
  type: "string",
  title: "Prompt",
  description,
  minLength: 1,
  maxLength: 4000,
  examples: ["a lighthouse on a cliff at dawn, oil painting"],
});
const negativePrompt: JsonSchema = {
  type: "string",
  title: "Negative prompt",
  description: "What the result must not contain.",
  default: "",
};
const seed: JsonSchema = {
  type: "integer",
  title: "Seed",
  description: "The same seed with the same input gives the same result.",
  minimum: 0,
  maximum: 2147483647,
};
export const IMAGE_SIZES = Object.keys(IMAGE_SIZE_PRESETS);
const imageSize: JsonSchema = {
  title: "Image size",
  description: "A preset, or a custom size in pixels.",
  default: "square_hd",
  anyOf: [
    { type: "string", enum: IMAGE_SIZES },
    {
      type: "object",
      title: "Custom size",
      properties: {
        width: { type: "integer", title: "Width", minimum: 256, maximum: 14142 },
        height: { type: "integer", title: "Height", minimum: 256, maximum: 14142 },
      },
      required: ["width", "height"],
    },
  ],
};
const aspectRatio = (values: string[], def = values[0]): JsonSchema => ({
  type: "string",
  title: "Aspect ratio",
  description: "Width to height of the result.",
  enum: values,
  default: def,
});
const steps = (max: number, def: number): JsonSchema => ({
  type: "integer",
  title: "Inference steps",
  description: "More steps: more detail, slower.",
  minimum: 1,
  maximum: max,
  default: def,
});
const guidance = (def: number, max = 20): JsonSchema => ({
  type: "number",
  title: "Guidance scale",
  description: "How closely the result follows the prompt.",
  minimum: 0,
  maximum: max,
  default: def,
});
const numImages = (max = 4): JsonSchema => ({
  type: "integer",
  title: "Number of images",
  description: "How many images to generate.",
  minimum: 1,
  maximum: max,
  default: 1,
});
const safety: JsonSchema = {
  type: "boolean",
  title: "Safety checker",
  description: "Flag unsafe results.",
  default: true,
};
const imageUrl = (title = "Image URL", description = "Public HTTPS URL of the source image."): JsonSchema => ({
  type: "string",
  title,
  description,
  format: "uri",
});
const strength: JsonSchema = {
  type: "number",
  title: "Strength",
  description: "How much the source image changes: 0 keeps it, 1 replaces it.",
  minimum: 0,
  maximum: 1,
  default: 0.95,
};
const audioUrl = (description = "Public HTTPS URL of the audio file."): JsonSchema => ({
  type: "string",
  title: "Audio URL",
  description,
  format: "uri",
});

// ---- outputs ---------------------------------------------------------------------------------
const file = (contentType: string): JsonSchema => ({
  type: "object",
  properties: {
    url: { type: "string", format: "uri" },
    content_type: { type: "string", default: contentType },
    file_name: { type: "string" },
    file_size: { type: "integer" },
  },
  required: ["url"],
});
const imageFile: JsonSchema = {
  type: "object",
  properties: {
    url: { type: "string", format: "uri" },
    content_type: { type: "string" },
    width: { type: "integer" },
    height: { type: "integer" },
    file_size: { type: "integer" },
  },
  required: ["url"],
};
const imagesOutput: JsonSchema = obj(
  {
    images: { type: "array", title: "Images", items: imageFile },
    seed: { type: "integer", title: "Seed" },
    has_nsfw_concepts: { type: "array", items: { type: "boolean" } },
    timings: { type: "object", properties: { inference: { type: "number" } } },
  },
  ["images"],
);
const videoOutput = obj({ video: { ...file("video/mp4"), title: "Video" } }, ["video"]);
const audioOutput = obj(
  {
    audio: {
      type: "object",
      title: "Audio",
      properties: { url: { type: "string", format: "uri" }, content_type: { type: "string" }, duration: { type: "number" } },
      required: ["url"],
    },
  },
  ["audio"],
);

// ---- builders --------------------------------------------------------------------------------
export type ImageOptions = {
  size?: "image_size" | "aspect_ratio";
  aspectRatios?: string[];
  steps?: [max: number, def: number];
  guidance?: number;
  negative?: boolean;
  maxImages?: number;
  source?: "image" | "image+strength";
  extra?: Props;
};

export function imageSchema(o: ImageOptions = {}): ModelSchema {
  const props: Props = { prompt: prompt() };
  const required = ["prompt"];
  if (o.source) {
    props.image_url = imageUrl();
    required.push("image_url");
    if (o.source === "image+strength") props.strength = strength;
  }
  if (o.negative) props.negative_prompt = negativePrompt;
  if ((o.size ?? "image_size") === "image_size") props.image_size = imageSize;
  else props.aspect_ratio = aspectRatio(o.aspectRatios ?? ["1:1", "16:9", "9:16", "4:3", "3:4", "21:9"]);
  if (o.steps) props.num_inference_steps = steps(...o.steps);
  if (o.guidance !== undefined) props.guidance_scale = guidance(o.guidance);
  props.num_images = numImages(o.maxImages ?? 4);
  props.seed = seed;
  Object.assign(props, o.extra);
  props.enable_safety_checker = safety;
  return { input: obj(props, required), output: imagesOutput };
}

/** Image-in, image-out tools (upscalers, background removal): no prompt. */
export function imageToolSchema(extra: Props = {}, output: JsonSchema = imagesOutput): ModelSchema {
  return { input: obj({ image_url: imageUrl(), ...extra }, ["image_url"]), output };
}

export const upscaleFactor = (max: number, def: number): JsonSchema => ({
  type: "number",
  title: "Upscale factor",
  description: "How many times larger the result is on each side.",
  minimum: 1,
  maximum: max,
  default: def,
});

export type VideoOptions = {
  durations?: string[];
  aspectRatios?: string[];
  source?: boolean;
  negative?: boolean;
  cfg?: boolean;
  extra?: Props;
};

export function videoSchema(o: VideoOptions = {}): ModelSchema {
  const props: Props = { prompt: prompt("What happens in the video.") };
  const required = ["prompt"];
  if (o.source) {
    props.image_url = imageUrl("Image URL", "Public HTTPS URL of the first frame.");
    required.push("image_url");
  }
  if (o.durations) {
    props.duration = {
      type: "string",
      title: "Duration",
      description: "Length of the video in seconds.",
      enum: o.durations,
      default: o.durations[0],
    };
  }
  if (o.aspectRatios) props.aspect_ratio = aspectRatio(o.aspectRatios);
  if (o.negative) props.negative_prompt = { ...negativePrompt, default: "blur, distort, and low quality" };
  if (o.cfg) props.cfg_scale = { ...guidance(0.5, 1), title: "CFG scale" };
  Object.assign(props, o.extra);
  props.seed = seed;
  return { input: obj(props, required), output: videoOutput };
}

export function ttsSchema(voices: string[], extra: Props = {}): ModelSchema {
  return {
    input: obj(
      {
        text: { type: "string", title: "Text", description: "The text to speak.", minLength: 1, maxLength: 10000 },
        voice: { type: "string", title: "Voice", description: "Which voice reads the text.", enum: voices, default: voices[0] },
        speed: { type: "number", title: "Speed", description: "Speaking rate.", minimum: 0.5, maximum: 2, default: 1 },
        ...extra,
      },
      ["text"],
    ),
    output: audioOutput,
  };
}

export function voiceCloneTtsSchema(): ModelSchema {
  return {
    input: obj(
      {
        text: { type: "string", title: "Text", description: "The text to speak.", minLength: 1, maxLength: 5000 },
        audio_url: audioUrl("5 to 30 seconds of clean speech in the voice to clone."),
        reference_text: { type: "string", title: "Reference text", description: "What is said in the reference audio." },
      },
      ["text", "audio_url"],
    ),
    output: audioOutput,
  };
}

export function voiceCloneSchema(): ModelSchema {
  return {
    input: obj(
      {
        audio_url: audioUrl("5 to 30 seconds of clean speech in the voice to clone."),
        name: { type: "string", title: "Name", description: "A name for the cloned voice.", minLength: 1, maxLength: 100 },
        noise_reduction: { type: "boolean", title: "Noise reduction", description: "Clean up the reference first.", default: false },
      },
      ["audio_url", "name"],
    ),
    output: obj(
      {
        voice_id: { type: "string", title: "Voice id", description: "Use as `voice_id` in text-to-speech." },
        audio: { ...file("audio/mpeg"), title: "Preview" },
      },
      ["voice_id"],
    ),
  };
}

export function sttSchema(languages: string[]): ModelSchema {
  return {
    input: obj(
      {
        audio_url: audioUrl(),
        task: {
          type: "string",
          title: "Task",
          description: "Transcribe, or translate to English.",
          enum: ["transcribe", "translate"],
          default: "transcribe",
        },
        language: { type: "string", title: "Language", description: "Spoken language; detected when empty.", enum: languages },
        chunk_level: {
          type: "string",
          title: "Chunk level",
          description: "Timestamps per segment or per word.",
          enum: ["segment", "word"],
          default: "segment",
        },
      },
      ["audio_url"],
    ),
    output: obj(
      {
        text: { type: "string", title: "Text" },
        chunks: {
          type: "array",
          items: { type: "object", properties: { timestamp: { type: "array", items: { type: "number" } }, text: { type: "string" } } },
        },
      },
      ["text"],
    ),
  };
}

export function soundSchema(durationField: "duration" | "seconds_total", maxSeconds: number, def: number, extra: Props = {}): ModelSchema {
  return {
    input: obj(
      {
        prompt: prompt("The sound or music to generate."),
        [durationField]: {
          type: "number",
          title: "Duration",
          description: "Length of the audio in seconds.",
          minimum: 1,
          maximum: maxSeconds,
          default: def,
        },
        ...extra,
        seed,
      },
      ["prompt"],
    ),
    output: audioOutput,
  };
}

export function musicSchema(extra: Props = {}): ModelSchema {
  return {
    input: obj(
      {
        prompt: prompt("Genre, mood, instruments."),
        lyrics: { type: "string", title: "Lyrics", description: "Sung lyrics; [verse] and [chorus] tags are understood.", maxLength: 3000 },
        ...extra,
        seed,
      },
      ["prompt"],
    ),
    output: audioOutput,
  };
}

export function embeddingSchema(maxInputs: number): ModelSchema {
  return {
    input: obj(
      {
        input: {
          title: "Input",
          description: "A text, or a list of texts, to embed.",
          anyOf: [
            { type: "string", minLength: 1 },
            { type: "array", items: { type: "string", minLength: 1 }, minItems: 1, maxItems: maxInputs },
          ],
        },
        normalize: { type: "boolean", title: "Normalize", description: "Return unit-length vectors.", default: true },
      },
      ["input"],
    ),
    output: obj(
      {
        embeddings: { type: "array", items: { type: "array", items: { type: "number" } } },
        dimensions: { type: "integer" },
      },
      ["embeddings"],
    ),
  };
}

export function threeDSchema(fromText = false, extra: Props = {}): ModelSchema {
  const input = fromText
    ? obj({ prompt: prompt("The object to model."), ...extra, seed }, ["prompt"])
    : obj(
        {
          image_url: imageUrl("Image URL", "Public HTTPS URL of a picture of the object."),
          ...extra,
          seed,
        },
        ["image_url"],
      );
  return {
    input,
    output: obj({ model_mesh: { ...file("model/gltf-binary"), title: "Mesh (GLB)" } }, ["model_mesh"]),
  };
}
