import { genreConventions, NEUTRAL_CONVENTIONS } from "./genres";

/** How much of the lyrics or description goes into the prompt (text-to-image models read ~75 tokens well). */
export const PROMPT_TEXT_CHARS = 300;

export type CoverPromptInput = { release_name: string; genre: string; text: string };

/**
 * The cover prompt, built the same way every time (no randomness, no hidden instructions; the
 * answer returns it as `cover_image_prompt`):
 *
 *   Square album cover artwork for a <genre> release titled "<release_name>".
 *   Visual style: <the genre's conventions from ./genres.ts, or the neutral ones>.
 *   Mood and imagery inspired by: <the first PROMPT_TEXT_CHARS characters of text, whitespace
 *   collapsed, cut at a word boundary>.
 *   Centered composition with one strong focal point that reads at thumbnail size, rich detail.
 *   No text, no letters, no logos, no watermark.
 *
 * The artist's name is left out (models tend to misspell names into the picture); lettering is
 * the job of the -edit operation, which draws it properly.
 */
export function buildCoverPrompt(input: CoverPromptInput): string {
  const entry = genreConventions(input.genre);
  return [
    `Square album cover artwork for a ${oneLine(entry?.genre ?? input.genre)} release titled "${oneLine(input.release_name).replace(/"/g, "'")}".`,
    `Visual style: ${entry?.conventions ?? NEUTRAL_CONVENTIONS}.`,
    `Mood and imagery inspired by: ${excerpt(input.text, PROMPT_TEXT_CHARS)}`,
    "Centered composition with one strong focal point that reads at thumbnail size, rich detail.",
    "No text, no letters, no logos, no watermark.",
  ].join(" ");
}

const oneLine = (s: string) => s.replace(/\s+/g, " ").trim();

/** The text's opening, at most `max` characters, cut at a word boundary and closed with a full stop. */
export function excerpt(text: string, max: number): string {
  const flat = oneLine(text);
  if (flat.length <= max) return /[.!?…]$/.test(flat) ? flat : `${flat}.`;
  const cut = flat.slice(0, max);
  const atWord = cut.lastIndexOf(" ") > max / 2 ? cut.slice(0, cut.lastIndexOf(" ")) : cut;
  return `${atWord.replace(/[\s,;:.!?-]+$/, "")}…`;
}
