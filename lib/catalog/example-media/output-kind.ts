/**
 * The kind of media a model outputs, from its catalog category, else from words in its endpoint id.
 * The catalog's example outputs are drawn by it, and the local simulator renders by it
 * (simulators/local-provider/models.ts, which first looks the endpoint up in its own catalog).
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

/** The kind a catalog category stands for; undefined for a category that names none. */
export const kindOfCategory = (category?: string | null): OutputKind | undefined =>
  category ? CATEGORY_KINDS[category.toLowerCase()] : undefined;

/** By the category when it names a kind, else by words in the endpoint id (else an image). */
export function outputKindOf(endpointId: string, category?: string | null): OutputKind {
  const byCategory = kindOfCategory(category);
  if (byCategory) return byCategory;
  const id = endpointId.toLowerCase();
  return KEYWORDS.find(([re]) => re.test(id))?.[1] ?? "image";
}
