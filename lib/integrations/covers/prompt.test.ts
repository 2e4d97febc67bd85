import { describe, expect, test } from "vitest";
import { genreConventions, GENRES, NEUTRAL_CONVENTIONS } from "./genres";
import { buildCoverPrompt, excerpt, PROMPT_TEXT_CHARS } from "./prompt";

describe("buildCoverPrompt", () => {
  test("is the documented template, filled from the genre table and the text", () => {
    const prompt = buildCoverPrompt({ release_name: "Night Drive", genre: "Synthwave", text: "Neon   lights\nover the empty highway" });
    expect(prompt).toBe(
      'Square album cover artwork for a Synthwave release titled "Night Drive". ' +
        `Visual style: ${NEUTRAL_CONVENTIONS}. ` +
        "Mood and imagery inspired by: Neon lights over the empty highway. " +
        "Centered composition with one strong focal point that reads at thumbnail size, rich detail. " +
        "No text, no letters, no logos, no watermark.",
    );
  });

  test("is deterministic: the same release gives the same prompt", () => {
    const input = { release_name: "Город", genre: "рэп", text: "Куплет про город и ночь" };
    expect(buildCoverPrompt(input)).toBe(buildCoverPrompt({ ...input }));
  });

  test.each([
    ["Hip Hop", "hip-hop"],
    ["РЭП", "hip-hop"],
    ["techno", "electronic"],
    ["Lo-Fi", "lo-fi"],
    ["lo fi", "lo-fi"],
    ["Классика", "classical"],
    ["R&B", "r&b"],
  ])("genre %s uses the %s conventions", (written, genre) => {
    const entry = GENRES.find((g) => g.genre === genre)!;
    expect(genreConventions(written)?.genre).toBe(genre);
    expect(buildCoverPrompt({ release_name: "X", genre: written, text: "y" })).toContain(`for a ${genre} release`);
    expect(buildCoverPrompt({ release_name: "X", genre: written, text: "y" })).toContain(`Visual style: ${entry.conventions}.`);
  });

  test("the artist never enters the prompt, and quotes in the name cannot break out of it", () => {
    const prompt = buildCoverPrompt({ release_name: 'Say "Hi"', genre: "pop", text: "hello" });
    expect(prompt).toContain(`titled "Say 'Hi'".`);
  });

  test("long lyrics are cut to their opening at a word boundary", () => {
    const lyrics = "word ".repeat(200);
    const cut = excerpt(lyrics, PROMPT_TEXT_CHARS);
    expect(cut.length).toBeLessThanOrEqual(PROMPT_TEXT_CHARS + 1);
    expect(cut).toMatch(/word…$/);
    expect(buildCoverPrompt({ release_name: "X", genre: "pop", text: lyrics })).toContain(cut);
  });
});
