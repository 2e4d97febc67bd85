import sharp from "sharp";
import { ensureOverlayFonts } from "./fontconfig";
import { svgText, type TextStyle } from "./svg-text";

/** Size at which words are measured; widths scale linearly with the font size. */
export const MEASURE_FONT_SIZE = 100;

/**
 * The inked width of a line in pixels, measured by rendering it with the same renderer and font
 * that draw the cover (librsvg + Inter), so wrapping and sizing never guess at glyph widths,
 * whatever the script.
 */
export async function inkWidth(text: string, style: TextStyle): Promise<number> {
  ensureOverlayFonts();
  if (!text.trim()) return 0;
  const pad = Math.ceil(style.fontSize);
  const width = Math.ceil(text.length * style.fontSize * 1.2 + pad * 2);
  const height = Math.ceil(style.fontSize * 1.6);
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">` +
    svgText(text, style, { x: pad, y: style.fontSize * 1.15, anchor: "start" }, 'fill="#000"') +
    `</svg>`;
  const { data, info } = await sharp(Buffer.from(svg)).ensureAlpha().extractChannel(3).raw().toBuffer({ resolveWithObject: true });
  let left = info.width;
  let right = -1;
  for (let y = 0; y < info.height; y++) {
    const row = y * info.width;
    for (let x = 0; x < left; x++) if (data[row + x]! > 0) left = x;
    for (let x = info.width - 1; x > right; x--) if (data[row + x]! > 0) right = x;
  }
  return right < left ? 0 : right - left + 1;
}
