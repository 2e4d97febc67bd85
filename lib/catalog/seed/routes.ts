import type { ModelRouteRow } from "@/db/schema";

/**
 * The seed's routes: open models that run on Replicate as well as on fal, with the input names
 * that differ there (Replicate's official models; values the two read differently, such as fal's
 * `image_size` presets against Replicate's `aspect_ratio`, are left to each model's default). Costs
 * are the operator's to set (they depend on the account's prices): null until then. A model's
 * routes are tried in this order, fal first; lib/generation/routing.ts keeps only the providers
 * a deployment has credentials for, so on the embedded default none of this applies.
 */
type SeedRoute = Pick<ModelRouteRow, "provider" | "endpointId" | "inputMap">;

const fal = (endpointId: string): SeedRoute => ({ provider: "fal", endpointId, inputMap: {} });
const replicate = (endpointId: string, inputMap: Record<string, string> = {}): SeedRoute => ({
  provider: "replicate",
  endpointId,
  inputMap,
});
const images = { num_images: "num_outputs" };

export const seedRoutes: Record<string, SeedRoute[]> = {
  "fal-ai/flux/schnell": [fal("fal-ai/flux/schnell"), replicate("black-forest-labs/flux-schnell", images)],
  "fal-ai/flux/dev": [fal("fal-ai/flux/dev"), replicate("black-forest-labs/flux-dev", images)],
  "fal-ai/flux-pro/v1.1": [fal("fal-ai/flux-pro/v1.1"), replicate("black-forest-labs/flux-1.1-pro")],
  "fal-ai/flux-pro/v1.1-ultra": [fal("fal-ai/flux-pro/v1.1-ultra"), replicate("black-forest-labs/flux-1.1-pro-ultra")],
  "fal-ai/stable-diffusion-v35-large": [fal("fal-ai/stable-diffusion-v35-large"), replicate("stability-ai/stable-diffusion-3.5-large")],
  "fal-ai/recraft/v3/text-to-image": [fal("fal-ai/recraft/v3/text-to-image"), replicate("recraft-ai/recraft-v3")],
  "fal-ai/ideogram/v2": [fal("fal-ai/ideogram/v2"), replicate("ideogram-ai/ideogram-v2")],
  "fal-ai/whisper": [fal("fal-ai/whisper"), replicate("openai/whisper", { audio_url: "audio" })],
  "fal-ai/kokoro/american-english": [fal("fal-ai/kokoro/american-english"), replicate("jaaari/kokoro-82m", { prompt: "text" })],
  "fal-ai/wan-i2v": [fal("fal-ai/wan-i2v"), replicate("wan-video/wan-2.1-i2v-480p", { image_url: "image" })],
};
