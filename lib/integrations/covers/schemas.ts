import { z } from "zod";

// What the album-cover adapter takes and answers; lib/http/contracts/integrations.ts serves these.

/** Lengths a cover can carry; `text` is shortened into the prompt (see lib/integrations/covers/prompt.ts). */
export const COVER_LIMITS = { artist: 100, release_name: 150, genre: 50, text: 3000 } as const;

const requiredText = (field: keyof typeof COVER_LIMITS, description: string) =>
  z
    .string({ error: (issue) => (issue.input === undefined ? `${field} is required` : `${field} must be a string`) })
    .trim()
    .min(1, `${field} must not be empty`)
    .max(COVER_LIMITS[field], `${field} must be at most ${COVER_LIMITS[field]} characters`)
    .meta({ description: `${description} (1–${COVER_LIMITS[field]} characters)` });

const artist = requiredText("artist", "Artist name");
const releaseName = requiredText("release_name", "Release (album, single or track) name");
const genre = requiredText(
  "genre",
  "Genre; a known genre (docs/integrations.md) sets the visual conventions, any other gets a neutral style",
);

const renderChoice = (what: string) =>
  z
    .union([z.boolean(), z.string().trim().max(COVER_LIMITS.release_name, `at most ${COVER_LIMITS.release_name} characters`)])
    .optional()
    .meta({
      description:
        `Whether to draw the ${what} on the cover. true or omitted: draw it as given; false or "": leave it off; ` +
        `any other string: draw that text instead.`,
    });

const isRendered = (choice: boolean | string | undefined) => choice !== false && choice !== "";

export const coverGenerateBody = z
  .object({
    artist,
    release_name: releaseName,
    genre,
    text: requiredText("text", "Lyrics or a description of the release; its opening is woven into the prompt"),
  })
  .meta({ id: "CoverGenerateRequest" });

export const coverEditBody = z
  .object({
    artist,
    release_name: releaseName,
    genre,
    render_track_text: renderChoice("release name"),
    render_artist_text: renderChoice("artist"),
    reference_image: z
      .url({ protocol: /^https?$/, error: "reference_image must be an http(s) URL" })
      .max(2048, "reference_image must be at most 2048 characters")
      .optional()
      .meta({
        description:
          "URL of the cover to write on: an upload (POST /me/uploads), an asset, or any public http(s) image. " +
          "Omitted: a new cover is generated first (billed like POST /integrations/{slug}).",
      }),
  })
  .refine((b) => isRendered(b.render_track_text) || isRendered(b.render_artist_text), {
    path: ["render_track_text"],
    message: "Nothing to render: render_track_text and render_artist_text are both off",
  })
  .meta({ id: "CoverEditRequest" });

export type CoverGenerateBody = z.output<typeof coverGenerateBody>;
export type CoverEditBody = z.output<typeof coverEditBody>;

export const coverAnswer = z
  .object({
    success: z.boolean(),
    message: z.string(),
    artist: z.string(),
    release_name: z.string(),
    genre: z.string(),
    text_length: z.int().meta({ description: "Generate: characters of `text`. Edit: characters drawn on the cover" }),
    cover_image_url: z.url().meta({ description: "The stored cover (square); valid until the asset is deleted" }),
    cover_image_prompt: z
      .string()
      .nullable()
      .meta({ description: "The prompt the cover was generated from; null when the text was drawn on a reference_image" }),
  })
  .meta({ id: "CoverAnswer" });

export type CoverAnswer = z.output<typeof coverAnswer>;
