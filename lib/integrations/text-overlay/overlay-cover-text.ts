import sharp from "sharp";
import { bandStats, chooseInk } from "./contrast";
import { ensureOverlayFonts } from "./fontconfig";
import { fitText, type FittedText } from "./fit-text";
import { squareCover } from "./square-cover";
import { round, svgText } from "./svg-text";

export type CoverText = { title: string | null; artist: string | null };
export type Box = { left: number; top: number; width: number; height: number };

export type OverlayResult = {
  bytes: Buffer;
  contentType: "image/jpeg";
  side: number;
  /** Where the text was drawn (the band the tests compare against the reference). */
  textBox: Box;
  position: "top" | "bottom";
  ink: ReturnType<typeof chooseInk>;
};

/** Proportions of the cover side. */
const MARGIN = 0.07;
const TITLE = { maxFont: 0.11, minFont: 0.055, maxLines: 3 };
const ARTIST = { maxFont: 0.065, minFont: 0.04, maxLines: 2 };
const LINE_HEIGHT = 1.18;
/** Inter's ascender is 0.97 em; with the line height above, the baseline sits here in a line. */
const BASELINE = 0.95;

/**
 * Draws the release name (title) and/or the artist on a cover, readable on any picture:
 * - size: each text gets the largest size that fits the cover's width (minus margins) on the
 *   fewest lines, measured by rendering; the artist line stays smaller than the title;
 * - placement: the calmer band (lower luma deviation) of top and bottom, bottom on a tie;
 * - contrast: light or dark text by the band's brightness, over a gradient scrim of the
 *   opposite colour made just strong enough for WCAG AA contrast (see chooseInk), plus a thin
 *   outline.
 * The image is centre-cropped to a square first (squareCover). Output: JPEG, quality 90, no
 * chroma subsampling, so letter edges stay clean.
 */
export async function overlayCoverText(image: Uint8Array, text: CoverText): Promise<OverlayResult> {
  ensureOverlayFonts();
  const { rgb, side } = await squareCover(image);
  const margin = Math.round(side * MARGIN);
  const maxWidth = side - 2 * margin;

  const blocks: FittedText[] = [];
  const artist = text.artist?.trim() ? await fitText(text.artist, { fontWeight: 600, maxWidth, ...scaled(ARTIST, side) }) : null;
  const title = text.title?.trim() ? await fitText(text.title, { fontWeight: 800, maxWidth, ...scaled(TITLE, side) }) : null;
  if (artist && title && artist.style.fontSize > title.style.fontSize * 0.8) artist.style.fontSize = title.style.fontSize * 0.8;
  if (artist) blocks.push(artist);
  if (title) blocks.push(title);

  const gap = title ? title.style.fontSize * 0.3 : 0;
  const blockHeight = blocks.reduce((h, b) => h + b.lines.length * b.style.fontSize * LINE_HEIGHT, 0) + (blocks.length > 1 ? gap : 0);
  const top = { start: margin, end: margin + blockHeight };
  const bottom = { start: side - margin - blockHeight, end: side - margin };
  const topStats = bandStats(rgb, side, 0, Math.ceil(top.end + margin / 2));
  const bottomStats = bandStats(rgb, side, Math.floor(bottom.start - margin / 2), side);
  const position = topStats.stdev + 2 < bottomStats.stdev ? "top" : "bottom";
  const band = position === "top" ? top : bottom;
  const ink = chooseInk(position === "top" ? topStats : bottomStats);

  const svg = coverSvg({ side, margin, blocks, gap, band, position, ink });
  const bytes = await sharp(rgb, { raw: { width: side, height: side, channels: 3 } })
    .composite([{ input: Buffer.from(svg), top: 0, left: 0 }])
    .jpeg({ quality: 90, chromaSubsampling: "4:4:4" })
    .toBuffer();
  const textBox = { left: margin, top: Math.floor(band.start), width: maxWidth, height: Math.ceil(band.end - band.start) };
  return { bytes, contentType: "image/jpeg", side, textBox, position, ink };
}

function scaled(p: { maxFont: number; minFont: number; maxLines: number }, side: number) {
  return { maxFont: p.maxFont * side, minFont: p.minFont * side, maxLines: p.maxLines };
}

type SvgPlan = {
  side: number;
  margin: number;
  blocks: FittedText[];
  gap: number;
  band: { start: number; end: number };
  position: "top" | "bottom";
  ink: ReturnType<typeof chooseInk>;
};

function coverSvg(p: SvgPlan): string {
  const grey = (l: number) => `rgb(${l},${l},${l})`;
  // The scrim covers the text band plus a margin and fades out toward the middle of the cover.
  const fade = p.margin * 2;
  const scrimTop = p.position === "top" ? 0 : p.band.start - fade;
  const scrimHeight = p.position === "top" ? p.band.end + fade : p.side - scrimTop;
  const solid = Math.min(1, (scrimHeight - fade) / scrimHeight);
  const stops =
    p.position === "top"
      ? [
          [0, p.ink.scrimOpacity],
          [solid, p.ink.scrimOpacity],
          [1, 0],
        ]
      : [
          [0, 0],
          [1 - solid, p.ink.scrimOpacity],
          [1, p.ink.scrimOpacity],
        ];
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${p.side}" height="${p.side}">`,
    `<defs><linearGradient id="scrim" x1="0" y1="0" x2="0" y2="1">`,
    ...stops.map(([at, o]) => `<stop offset="${round(at!)}" stop-color="${grey(p.ink.scrim)}" stop-opacity="${o}"/>`),
    `</linearGradient></defs>`,
    `<rect x="0" y="${round(scrimTop)}" width="${p.side}" height="${round(scrimHeight)}" fill="url(#scrim)"/>`,
  ];
  let y = p.band.start;
  p.blocks.forEach((block, i) => {
    if (i > 0) y += p.gap;
    const { fontSize } = block.style;
    const paint =
      `fill="${grey(p.ink.text)}" stroke="${grey(p.ink.scrim)}" stroke-opacity="0.35" ` +
      `stroke-width="${round(fontSize * 0.04)}" stroke-linejoin="round" paint-order="stroke"`;
    for (const line of block.lines) {
      parts.push(svgText(line, block.style, { x: p.side / 2, y: y + fontSize * BASELINE, anchor: "middle" }, paint));
      y += fontSize * LINE_HEIGHT;
    }
  });
  parts.push(`</svg>`);
  return parts.join("");
}
