/**
 * Visual conventions of album covers by genre: what a designer would reach for first. This table
 * is the whole of the "prompt engineering": a known genre (or one of its aliases, matched
 * case-insensitively, Russian names included) contributes its conventions word for word; any
 * other genre gets NEUTRAL_CONVENTIONS. docs/integrations.md lists it for partners.
 */
export type GenreConventions = { genre: string; aliases: string[]; conventions: string };

export const GENRES: GenreConventions[] = [
  {
    genre: "pop",
    aliases: ["поп", "k-pop", "dance-pop"],
    conventions: "bright saturated pastel palette, glossy studio lighting, clean bold composition, playful modern mood",
  },
  {
    genre: "rock",
    aliases: ["рок", "hard rock", "alternative rock"],
    conventions: "gritty high-contrast photography, film grain, warm amber and black tones, raw energetic mood",
  },
  {
    genre: "metal",
    aliases: ["метал", "heavy metal", "death metal", "black metal"],
    conventions: "dark dramatic scene, deep blacks with crimson and steel highlights, ominous atmosphere, intricate detailed illustration",
  },
  {
    genre: "punk",
    aliases: ["панк", "post-punk", "постпанк"],
    conventions: "DIY collage look, photocopy texture, harsh black with acid colour accents, rebellious energy",
  },
  {
    genre: "hip-hop",
    aliases: ["hip hop", "rap", "trap", "рэп", "хип-хоп", "трэп"],
    conventions: "urban night street scene, bold graphic framing, moody neon and sodium light, confident attitude, cinematic photo",
  },
  {
    genre: "r&b",
    aliases: ["rnb", "soul", "соул"],
    conventions: "smooth sensual mood, rich warm purples and golds, soft-focus portrait lighting, velvet textures",
  },
  {
    genre: "electronic",
    aliases: ["electronica", "edm", "techno", "house", "электроника", "техно", "хаус"],
    conventions: "abstract geometric forms, neon gradients on a deep dark background, futuristic glow, rhythmic repeating patterns",
  },
  {
    genre: "ambient",
    aliases: ["эмбиент", "drone"],
    conventions: "vast minimal landscape, soft gradients, mist and diffused light, tranquil spacious composition",
  },
  {
    genre: "lo-fi",
    aliases: ["lofi", "chillhop", "chill", "лоу-фай"],
    conventions: "cozy illustrated room at dusk, soft grainy pastel palette, nostalgic calm",
  },
  {
    genre: "jazz",
    aliases: ["джаз"],
    conventions: "mid-century modern design, smoky club ambience, warm muted blues and browns, elegant minimal shapes",
  },
  {
    genre: "blues",
    aliases: ["блюз"],
    conventions: "moody vintage photograph, deep indigo and warm tungsten tones, worn textures, soulful solitude",
  },
  {
    genre: "classical",
    aliases: ["классика", "классическая", "orchestral", "neoclassical"],
    conventions: "fine-art painting style, soft natural light, refined muted palette, timeless serene composition",
  },
  {
    genre: "folk",
    aliases: ["фолк", "acoustic", "country", "кантри"],
    conventions: "natural landscape, earthy warm tones, handcrafted textures, golden-hour light, rustic calm",
  },
  {
    genre: "indie",
    aliases: ["инди", "alternative", "альтернатива", "indie pop", "indie rock"],
    conventions: "dreamy analog film photography, soft faded colours, candid intimate moment, light leaks",
  },
  {
    genre: "reggae",
    aliases: ["регги", "dub", "dancehall"],
    conventions: "sunlit tropical scene, vivid green, yellow and red accents, relaxed warm atmosphere",
  },
  {
    genre: "latin",
    aliases: ["латина", "reggaeton", "реггетон", "salsa"],
    conventions: "vibrant festive colours, hot sunset light, rhythmic motion, bold tropical patterns",
  },
];

export const NEUTRAL_CONVENTIONS = "distinctive artistic composition, cohesive colour palette, one striking focal point";

const normalise = (s: string) =>
  s
    .trim()
    .toLowerCase()
    .replace(/ё/g, "е")
    .replace(/[\s_]+/g, " ");

const byName = new Map<string, GenreConventions>(
  GENRES.flatMap((g) => [g.genre, ...g.aliases].map((name) => [normalise(name), g] as const)),
);

/** The table entry for a genre as a user wrote it, or null for a genre the table does not know. */
export function genreConventions(genre: string): GenreConventions | null {
  const key = normalise(genre);
  return byName.get(key) ?? byName.get(key.replace(/-/g, " ")) ?? byName.get(key.replace(/ /g, "-")) ?? null;
}
