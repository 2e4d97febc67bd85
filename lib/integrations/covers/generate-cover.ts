import type { CoverAnswer, CoverGenerateBody } from "./schemas";
import type { ServiceContext } from "@/lib/auth/context";
import type { Idempotency } from "@/lib/generation";
import { generateCoverImage } from "./generate-cover-image";
import { buildCoverPrompt } from "./prompt";

/** `POST /integrations/{slug}`: a cover generated from the release (see buildCoverPrompt). */
export async function generateCover(ctx: ServiceContext, body: CoverGenerateBody, idempotency?: Idempotency): Promise<CoverAnswer> {
  const prompt = buildCoverPrompt(body);
  const cover = await generateCoverImage(ctx, prompt, idempotency);
  return {
    success: true,
    message: "Cover generated",
    artist: body.artist,
    release_name: body.release_name,
    genre: body.genre,
    text_length: [...body.text].length,
    cover_image_url: cover.url,
    cover_image_prompt: prompt,
  };
}
