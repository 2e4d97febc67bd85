import sharp from "sharp";
import { prng } from "./random";

export type ImageFormat = "png" | "jpeg";

/**
 * A deterministic picture for a seed: a two-colour vertical gradient with a few discs and bands.
 * Pixels are written row by row as runs (Buffer.fill with a 3-byte pattern), so a 1024×1024
 * frame costs a few milliseconds of JS before sharp encodes it.
 */
export async function renderImage(seed: string, width: number, height: number, index: number, format: ImageFormat): Promise<Uint8Array> {
  const rand = prng(seed, index);
  const color = () => [rand() * 255, rand() * 255, rand() * 255].map(Math.round) as [number, number, number];
  const top = color();
  const bottom = color();
  const shapes = Array.from({ length: 3 + Math.floor(rand() * 4) }, () => {
    const disc = rand() < 0.7;
    return {
      disc,
      cx: rand() * width,
      cy: rand() * height,
      r: (0.05 + rand() * 0.25) * Math.min(width, height),
      y0: Math.floor(rand() * height),
      h: Math.max(1, Math.floor((0.02 + rand() * 0.1) * height)),
      color: Buffer.from(color()),
    };
  });
  const stride = width * 3;
  const pixels = Buffer.allocUnsafe(stride * height);
  const base = Buffer.alloc(3);
  for (let y = 0; y < height; y++) {
    const t = height > 1 ? y / (height - 1) : 0;
    for (let c = 0; c < 3; c++) base[c] = Math.round(top[c]! + (bottom[c]! - top[c]!) * t);
    const row = y * stride;
    pixels.fill(base, row, row + stride);
    for (const s of shapes) {
      if (s.disc) {
        const dy = y - s.cy;
        if (Math.abs(dy) >= s.r) continue;
        const half = Math.sqrt(s.r * s.r - dy * dy);
        const x0 = Math.max(0, Math.floor(s.cx - half));
        const x1 = Math.min(width, Math.ceil(s.cx + half));
        if (x1 > x0) pixels.fill(s.color, row + x0 * 3, row + x1 * 3);
      } else if (y >= s.y0 && y < s.y0 + s.h) {
        pixels.fill(s.color, row, row + stride);
      }
    }
  }
  const img = sharp(pixels, { raw: { width, height, channels: 3 } });
  return format === "png"
    ? img.png({ compressionLevel: 6, adaptiveFiltering: false }).toBuffer()
    : img.jpeg({ quality: 85, optimiseCoding: false }).toBuffer();
}
