import type { ModelSchema } from "@/db/schema/models";
import type { ListModelsOptions, ModelListPage, ProviderModel } from "@/lib/provider/types";
import { kindOfCategory, outputKindOf as kindByCategoryOrId, type OutputKind } from "@/lib/catalog/example-media/output-kind";
import { SCHEMAS } from "./model-schemas";

/**
 * What the simulator can produce, and the catalog it lists. Any endpoint id can be submitted (the
 * simulator stands in for fal); the kind of output is chosen by the category the engine passes,
 * else by this list, else by words in the endpoint id.
 */
export type { OutputKind };

export function outputKindOf(endpointId: string, category?: string | null): OutputKind {
  const known = LOCAL_MODELS.find((m) => m.endpointId === endpointId);
  return kindOfCategory(category) ?? kindOfCategory(known?.category) ?? kindByCategoryOrId(endpointId);
}

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

/** One page of the catalog, filtered like fal's Platform API; the cursor is the next offset. */
export function listLocalModels(options: ListModelsOptions = {}): ModelListPage {
  const q = options.query?.toLowerCase();
  const all = LOCAL_MODELS.filter(
    (m) =>
      options.status !== "deprecated" &&
      (!options.category || m.category === options.category) &&
      (!options.endpointIds?.length || options.endpointIds.includes(m.endpointId)) &&
      (!q || m.endpointId.toLowerCase().includes(q) || m.displayName.toLowerCase().includes(q) || m.description.toLowerCase().includes(q)),
  );
  const limit = Math.min(50, Math.max(1, options.limit ?? 50));
  const start = options.cursor ? Number(Buffer.from(options.cursor, "base64url").toString()) || 0 : 0;
  const page = all.slice(start, start + limit).map((m) => ({
    ...m,
    status: "active" as const,
    thumbnailUrl: null,
    licenseType: m.licenseType ?? null,
  }));
  const next = start + limit < all.length ? Buffer.from(String(start + limit)).toString("base64url") : null;
  return { models: page, nextCursor: next };
}
