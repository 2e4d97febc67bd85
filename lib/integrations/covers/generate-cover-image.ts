import { env } from "@/lib/core/env";
import { generateNow, type Idempotency } from "@/lib/generation";
import { DomainError } from "@/lib/core/errors";
import type { ServiceContext } from "@/lib/auth/context";

/** Square, cover-sized: 1024×1024 on fal's image models (and on the simulator). */
export const COVER_IMAGE_INPUT = { image_size: "square_hd", num_images: 1 } as const;

export type GeneratedCover = { url: string; requestId: string; costCredits: number };

/**
 * One cover from the prompt on INTEGRATION_MODEL_ID, through the generation engine: billed to the
 * caller like any sync generation (reserve, settle, full refund when it fails; activity operation
 * `integration`), its result re-hosted on the service's storage. The request's Idempotency-Key
 * keys it: a repeat reuses the first request's generation.
 */
export async function generateCoverImage(ctx: ServiceContext, prompt: string, idempotency?: Idempotency): Promise<GeneratedCover> {
  const result = await generateNow(ctx, {
    modelId: env().INTEGRATION_MODEL_ID,
    input: { prompt, ...COVER_IMAGE_INPUT },
    operation: "integration",
    idempotency,
  });
  const url = firstImageUrl(result.output);
  if (!url) throw new DomainError("generation_failed", "The model answered without an image", { requestId: result.requestId });
  return { url, requestId: result.requestId, costCredits: result.costCredits };
}

/** `images[0].url` (fal's text-to-image shape) or `image.url` (single-image models). */
export function firstImageUrl(output: Record<string, unknown>): string | null {
  const images = output.images;
  const first = Array.isArray(images) ? images[0] : output.image;
  const url = first && typeof first === "object" ? (first as { url?: unknown }).url : undefined;
  return typeof url === "string" && url ? url : null;
}
