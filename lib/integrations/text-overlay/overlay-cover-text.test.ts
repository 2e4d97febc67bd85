import path from "node:path";
import sharp from "sharp";
import { describe, expect, test } from "vitest";
import { contrastRatio, chooseInk, TARGET_CONTRAST } from "./contrast";
import { fitText } from "./fit-text";
import { inkWidth } from "./measure-text";
import { overlayCoverText } from "./overlay-cover-text";
import { squareCover } from "./square-cover";
import { meanDiff } from "@/test/media";

const plain = (width: number, height: number, colour: string) =>
  sharp({ create: { width, height, channels: 3, background: colour } })
    .png()
    .toBuffer();

/** Random noise in rows [from, to) of an otherwise flat grey picture: a "busy" band. */
async function noisyBand(side: number, from: number, to: number): Promise<Buffer> {
  const raw = Buffer.alloc(side * side * 3, 128);
  let s = 7;
  for (let i = from * side * 3; i < to * side * 3; i++) raw[i] = (s = (s * 1103515245 + 12345) & 0x7fffffff) & 0xff;
  return sharp(raw, { raw: { width: side, height: side, channels: 3 } })
    .png()
    .toBuffer();
}

async function rgbOf(bytes: Uint8Array): Promise<{ data: Buffer; side: number }> {
  const { data, info } = await sharp(bytes).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return { data, side: info.width };
}

describe("the bundled font", () => {
  test("fontconfig is pointed at the bundled Inter only", async () => {
    await inkWidth("x", { fontSize: 20, fontWeight: 800 });
    expect(process.env.FONTCONFIG_FILE).toBe(path.resolve("lib/integrations/text-overlay/fonts.conf"));
  });

  test("Cyrillic renders as real letters: Cyrillic СОТКА looks like Latin COTKA, and neither like tofu boxes or nothing", async () => {
    const grey = await plain(512, 512, "#808080");
    const cyrillic = await overlayCoverText(grey, { title: "СОТКА", artist: null });
    const latin = await overlayCoverText(grey, { title: "COTKA", artist: null });
    const reference = await squareCover(grey);
    const [c, l] = [await rgbOf(cyrillic.bytes), await rgbOf(latin.bytes)];
    expect(cyrillic.textBox).toEqual(latin.textBox);
    // The homoglyphs share their outlines in Inter, so the two renders are (nearly) the same
    // picture; a missing glyph would be drawn as a hex box, which looks nothing like a letter.
    expect(meanDiff(c.data, l.data, 512, cyrillic.textBox)).toBeLessThan(1.5);
    // …and the text region is really inked.
    expect(meanDiff(c.data, reference.rgb, 512, cyrillic.textBox)).toBeGreaterThan(10);
  });

  test("Cyrillic without Latin look-alikes has width like its Latin transliteration (glyphs, not boxes)", async () => {
    const style = { fontSize: 100, fontWeight: 800 } as const;
    const [cyr, lat, box] = await Promise.all([
      inkWidth("Жизнь", style),
      inkWidth("Zhizn", style),
      inkWidth("\u{10FFFD}\u{10FFFD}\u{10FFFD}\u{10FFFD}\u{10FFFD}", style),
    ]);
    expect(cyr).toBeGreaterThan(lat * 0.7);
    expect(cyr).toBeLessThan(lat * 1.5);
    expect(Math.abs(cyr - box)).toBeGreaterThan(10);
  });
});

describe("layout", () => {
  test("a non-square reference becomes a square cover of its shorter side", async () => {
    const out = await overlayCoverText(await plain(900, 600, "#204060"), { title: "Title", artist: "Artist" });
    const meta = await sharp(out.bytes).metadata();
    expect({ format: meta.format, width: meta.width, height: meta.height }).toEqual({ format: "jpeg", width: 600, height: 600 });
    expect(out.side).toBe(600);
  });

  test("tiny references are scaled up so the text has room; huge ones are bounded", async () => {
    expect((await overlayCoverText(await plain(64, 64, "#000"), { title: "X", artist: null })).side).toBe(512);
    expect((await overlayCoverText(await plain(3000, 2500, "#000"), { title: "X", artist: null })).side).toBe(2048);
  });

  test("text goes to the calmer band: bottom when the top is busy, top when the bottom is busy", async () => {
    const side = 512;
    const busyTop = await overlayCoverText(await noisyBand(side, 0, 200), { title: "Release", artist: "Artist" });
    const busyBottom = await overlayCoverText(await noisyBand(side, 312, 512), { title: "Release", artist: "Artist" });
    expect([busyTop.position, busyBottom.position]).toEqual(["bottom", "top"]);
  });

  test("light text on dark pictures, dark text on light ones", async () => {
    const dark = await overlayCoverText(await plain(512, 512, "#101010"), { title: "Night", artist: null });
    const light = await overlayCoverText(await plain(512, 512, "#f4f4f4"), { title: "Day", artist: null });
    expect([dark.ink.text, light.ink.text]).toEqual([255, 17]);
  });

  test("a long title wraps and shrinks to stay inside the margins", async () => {
    const side = 1024;
    const long = "A very long release name that keeps going and going, well past any sensible width for a cover";
    const fitted = await fitText(long, { fontWeight: 800, maxWidth: 880, maxFont: 112, minFont: 56, maxLines: 3 });
    expect(fitted.lines.length).toBeGreaterThan(1);
    for (const line of fitted.lines) expect(await inkWidth(line, fitted.style)).toBeLessThanOrEqual(880);
    const out = await overlayCoverText(await plain(side, side, "#336699"), { title: long, artist: "Someone" });
    expect(out.textBox.left).toBeGreaterThan(0);
    expect(out.textBox.left + out.textBox.width).toBeLessThan(side);
  });
});

describe("contrast", () => {
  test.each([
    ["flat black", { mean: 0, stdev: 0 }],
    ["flat white", { mean: 255, stdev: 0 }],
    ["mid grey", { mean: 128, stdev: 10 }],
    ["busy mid grey", { mean: 140, stdev: 70 }],
    ["busy light", { mean: 180, stdev: 60 }],
  ])("%s: the text reaches WCAG AA against the band's nearest-to-text pixels under the scrim", (_, stats) => {
    const ink = chooseInk(stats);
    const worst = ink.text === 255 ? Math.min(255, stats.mean + stats.stdev) : Math.max(0, stats.mean - stats.stdev);
    const behind = worst * (1 - ink.scrimOpacity) + ink.scrim * ink.scrimOpacity;
    expect(contrastRatio(ink.text, behind)).toBeGreaterThanOrEqual(TARGET_CONTRAST);
    expect(ink.scrimOpacity).toBeLessThanOrEqual(0.85);
  });
});
