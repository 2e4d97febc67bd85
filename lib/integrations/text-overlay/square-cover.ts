import sharp from "sharp";

/** Covers are square; a reference image is centre-cropped to its shorter side within these bounds. */
export const MIN_COVER_SIDE = 512;
export const MAX_COVER_SIDE = 2048;
/** Decoding bound for reference images (a 10 MiB file can declare a huge canvas). */
export const MAX_INPUT_PIXELS = 50_000_000;

export type SquareCover = { rgb: Buffer; side: number };

/**
 * Any image sharp reads → a square RGB raster: EXIF orientation applied, centre-cropped to the
 * shorter side (clamped to MIN/MAX_COVER_SIDE), transparency flattened onto black.
 */
export async function squareCover(image: Uint8Array): Promise<SquareCover> {
  const meta = await sharp(image, { limitInputPixels: MAX_INPUT_PIXELS }).metadata();
  if (!meta.width || !meta.height) throw new Error("image has no dimensions");
  const side = Math.min(MAX_COVER_SIDE, Math.max(MIN_COVER_SIDE, Math.min(meta.width, meta.height)));
  const rgb = await sharp(image, { limitInputPixels: MAX_INPUT_PIXELS })
    .rotate()
    .resize(side, side, { fit: "cover", position: "centre" })
    .flatten({ background: "#000000" })
    .removeAlpha()
    .raw()
    .toBuffer();
  return { rgb, side };
}
