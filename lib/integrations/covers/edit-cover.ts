import type { CoverAnswer, CoverEditBody } from "./schemas";
import { getStorage } from "@/lib/storage";
import type { ServiceContext } from "@/lib/auth/context";
import type { Idempotency } from "@/lib/generation";
import { loadImage } from "../load-image";
import { storeCover } from "../store-cover";
import { overlayCoverText } from "../text-overlay/overlay-cover-text";
import { generateCoverImage } from "./generate-cover-image";
import { buildCoverPrompt } from "./prompt";

/** `render_*_text`: true/omitted → the field's own value, false/"" → nothing, a string → that string. */
export function renderedText(choice: boolean | string | undefined, own: string): string | null {
  if (choice === false || choice === "") return null;
  return typeof choice === "string" ? choice : own;
}

/**
 * `POST /integrations/{slug}-edit`: the release name and/or artist drawn on `reference_image`, or
 * on a cover generated for the release when there is none, stored as an `integration` asset.
 * Storage is checked first, so a server that cannot keep the result never bills a generation.
 */
export async function editCover(ctx: ServiceContext, body: CoverEditBody, idempotency?: Idempotency): Promise<CoverAnswer> {
  const storage = getStorage();
  const title = renderedText(body.render_track_text, body.release_name);
  const artist = renderedText(body.render_artist_text, body.artist);

  let prompt: string | null = null;
  let generationId: string | null = null;
  let sourceUrl: string;
  if (body.reference_image) {
    sourceUrl = body.reference_image;
  } else {
    prompt = buildCoverPrompt({ release_name: body.release_name, genre: body.genre, text: body.release_name });
    const generated = await generateCoverImage(ctx, prompt, idempotency);
    sourceUrl = generated.url;
    generationId = generated.requestId;
  }
  const image = await loadImage(sourceUrl, "reference_image");
  const overlay = await overlayCoverText(image, { title, artist });
  const asset = await storeCover(ctx.db, storage, {
    userId: ctx.principal.userId,
    bytes: overlay.bytes,
    contentType: overlay.contentType,
    sourceUrl,
    generationId,
  });
  return {
    success: true,
    message: prompt ? "Cover generated and text added" : "Text added to the cover",
    artist: body.artist,
    release_name: body.release_name,
    genre: body.genre,
    text_length: [...(title ?? "")].length + [...(artist ?? "")].length,
    cover_image_url: asset.publicUrl!,
    cover_image_prompt: prompt,
  };
}
