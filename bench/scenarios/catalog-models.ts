/**
 * A synthetic catalog of realistic shape for load: fal-style ids, names and descriptions built
 * from a vocabulary (so a search term matches a few percent of models, as real searches do),
 * Zipf-like tags, prices from sub-kopeck to hundreds of rubles. Deterministic (seeded).
 * Used by the catalog benchmark and by the index test in lib/catalog/list.test.ts.
 */
const LABS = [
  "Aurora Labs",
  "Nimbus AI",
  "Lumen",
  "Quanta",
  "Vireo",
  "Halcyon",
  "Orbital",
  "Kestrel",
  "Moss",
  "Cinder",
  "Tidewater",
  "Polaris",
  "Ember Research",
  "Granite",
  "Sable",
  "Juniper",
  "Zephyr",
  "Obsidian",
  "Marigold",
  "Fathom",
];
const FAMILIES = [
  "Diffusion",
  "Flow",
  "Vision",
  "Motion",
  "Voice",
  "Echo",
  "Canvas",
  "Prism",
  "Atlas",
  "Muse",
  "Pulse",
  "Sketch",
  "Dream",
  "Frame",
  "Studio",
  "Lyric",
  "Sonic",
  "Vertex",
  "Mesh",
  "Vector",
  "Spark",
  "Drift",
  "Bloom",
  "Glint",
];
const CATEGORIES = [
  "text-to-image",
  "text-to-image",
  "text-to-image",
  "image-to-image",
  "text-to-video",
  "image-to-video",
  "text-to-speech",
  "speech-to-text",
  "text-to-audio",
  "music",
  "voice-cloning",
  "3d",
  "embedding",
];
const UNITS = {
  "text-to-image": "megapixel",
  "image-to-image": "image",
  "text-to-video": "second",
  "image-to-video": "second",
  "text-to-speech": "1k_chars",
  "speech-to-text": "request",
  "text-to-audio": "second",
  music: "request",
  "voice-cloning": "request",
  "3d": "request",
  embedding: "1k_chars",
} as Record<string, string>;
const TAGS = [
  "realism",
  "fast",
  "open-weights",
  "style",
  "anime",
  "lora",
  "text-rendering",
  "multilingual",
  "cinematic",
  "portrait",
  "upscale",
  "editing",
  "design",
  "vector",
  "3d-ready",
  "audio",
  "music",
  "voice",
  "nsfw-safe",
  "commercial-use",
  "high-resolution",
  "affordable",
  "experimental",
  "physics",
  "character-consistency",
  "typography",
  "sound-effects",
  "retrieval",
  "dialogue",
  "landscape",
  "product-photo",
  "architecture",
  "illustration",
  "pixel-art",
  "watercolor",
  "sketch",
  "logo",
  "interior",
  "fashion",
  "food",
];
const ADJECTIVES = [
  "crisp",
  "photoreal",
  "painterly",
  "fast",
  "expressive",
  "faithful",
  "vivid",
  "cinematic",
  "gentle",
  "precise",
  "playful",
  "moody",
  "clean",
  "detailed",
  "balanced",
  "bold",
];
const NOUNS = [
  "portraits",
  "landscapes",
  "product shots",
  "logos",
  "storyboards",
  "voices",
  "soundscapes",
  "melodies",
  "meshes",
  "illustrations",
  "posters",
  "clips",
  "interiors",
  "textures",
  "characters",
];

function rng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const slug = (s: string) =>
  s
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "");

export type SyntheticModel = {
  modelId: string;
  alias: string;
  displayName: string;
  category: string;
  description: string;
  priceRub: string;
  priceUnit: string;
  discountPercent: string;
  modelLab: string | null;
  modelFamily: string;
  groupLabel: string;
  tags: string[];
  licenseType: string;
  popularity: number;
  publishedAt: Date;
};

export function syntheticModels(count: number, seed = 42): SyntheticModel[] {
  const r = rng(seed);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(r() * xs.length)]!;
  const zipfTag = () => TAGS[Math.floor(TAGS.length * r() * r())]!;
  const out: SyntheticModel[] = [];
  for (let i = 0; i < count; i++) {
    const lab = r() < 0.12 ? null : pick(LABS);
    const family = pick(FAMILIES);
    const version = `${1 + Math.floor(r() * 4)}.${Math.floor(r() * 10)}`;
    const category = pick(CATEGORIES);
    const tags = [...new Set(Array.from({ length: 2 + Math.floor(r() * 4) }, zipfTag))];
    const price = r() < 0.05 ? (r() * 0.001).toFixed(6) : (r() * (category.includes("video") ? 60 : 8)).toFixed(r() < 0.5 ? 2 : 4);
    out.push({
      modelId: `${lab ? slug(lab) : "community"}/${slug(family)}/v${version}/${category}-${i}`,
      alias: `${lab ? slug(lab) : "community"}/${slug(family)}/v${version}/${category}-${i}`,
      displayName: `${family} ${version}${r() < 0.3 ? " Pro" : ""}`,
      category,
      description: `${lab ?? "A community"} ${family} model for ${pick(ADJECTIVES)} ${pick(NOUNS)} and ${pick(ADJECTIVES)} ${pick(NOUNS)}.`,
      priceRub: price,
      priceUnit: UNITS[category]!,
      discountPercent: r() < 0.1 ? String(5 * (1 + Math.floor(r() * 8))) : "0",
      modelLab: lab,
      modelFamily: family,
      groupLabel: family,
      tags,
      licenseType: pick(["commercial", "non-commercial", "open-source"]),
      popularity: Math.floor(100_000 * r() ** 3),
      publishedAt: new Date(Date.UTC(2023, 0, 1) + Math.floor(r() * 1000) * 86_400_000),
    });
  }
  return out;
}

/** The benchmark's query mix: a family name (a few percent of models) with a common tag. */
export const catalogBenchQueries = FAMILIES.slice(0, 12).map(
  (family, i) => `search=${encodeURIComponent(family.toLowerCase())}&tag=${TAGS[i % 6]}&sort=price_asc`,
);
