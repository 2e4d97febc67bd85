import type { PriceUnit } from "@/db/schema/models";

/**
 * The fixed order of `sort=by_category` (the spec's category list); categories that appear later
 * (the list is open) sort after these, alphabetically.
 */
export const CATEGORY_ORDER = [
  "text-to-image",
  "image-to-image",
  "text-to-video",
  "image-to-video",
  "text-to-speech",
  "speech-to-text",
  "text-to-audio",
  "voice-cloning",
  "music",
  "3d",
  "embedding",
] as const;

export const CATEGORY_LABELS: Record<string, string> = {
  "text-to-image": "Text to image",
  "image-to-image": "Image to image",
  "text-to-video": "Text to video",
  "image-to-video": "Image to video",
  "text-to-speech": "Text to speech",
  "speech-to-text": "Speech to text",
  "text-to-audio": "Text to audio",
  "voice-cloning": "Voice cloning",
  music: "Music",
  "3d": "3D",
  embedding: "Embeddings",
};

export const categoryLabel = (c: string) => CATEGORY_LABELS[c] ?? c.replace(/-/g, " ").replace(/^./, (s) => s.toUpperCase());

/** The skill surface's closed category enum. */
export const SKILL_CATEGORIES = ["text-to-image", "image-to-image", "text-to-video", "image-to-video", "audio", "3d"] as const;
export type SkillCategory = (typeof SKILL_CATEGORIES)[number];

/**
 * Gateway category → skill category. Every sound modality folds into `audio`. Embeddings have no
 * skill category (the skill surface is for media generation) and are not listed there, nor is
 * any future category until it is mapped here.
 */
const SKILL_CATEGORY_OF: Record<string, SkillCategory> = {
  "text-to-image": "text-to-image",
  "image-to-image": "image-to-image",
  "text-to-video": "text-to-video",
  "image-to-video": "image-to-video",
  "text-to-speech": "audio",
  "speech-to-text": "audio",
  "text-to-audio": "audio",
  "voice-cloning": "audio",
  music: "audio",
  "3d": "3d",
};

export const skillCategoryOf = (category: string): SkillCategory | null => SKILL_CATEGORY_OF[category] ?? null;

export const gatewayCategoriesOf = (skill: SkillCategory): string[] =>
  Object.entries(SKILL_CATEGORY_OF)
    .filter(([, s]) => s === skill)
    .map(([g]) => g);

export const SKILL_PRICE_UNITS = ["megapixels", "images", "seconds", "videos"] as const;
export type SkillPriceUnit = (typeof SKILL_PRICE_UNITS)[number];

/**
 * Gateway priceUnit → the skill enum (megapixels, images, seconds, videos). A per-request price is
 * "per video" for video models and "per image" for image models; for other per-request models and
 * for per-1k-characters prices the enum has no honest word, so the skill answer leaves priceUnit
 * out and carries the gateway unit in `billingUnit` instead.
 */
export function skillPriceUnitOf(unit: PriceUnit, category: string): SkillPriceUnit | null {
  switch (unit) {
    case "image":
      return "images";
    case "megapixel":
      return "megapixels";
    case "second":
      return "seconds";
    case "request":
      return category.endsWith("-to-video") ? "videos" : category.endsWith("-to-image") ? "images" : null;
    case "1k_chars":
      return null;
  }
}
