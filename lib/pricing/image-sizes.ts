/**
 * Pixel sizes behind the `image_size` presets (fal's definitions) and common `aspect_ratio`
 * values, used to turn an image request into megapixels before it runs.
 */
export const IMAGE_SIZE_PRESETS: Record<string, { width: number; height: number }> = {
  square_hd: { width: 1024, height: 1024 },
  square: { width: 512, height: 512 },
  portrait_4_3: { width: 768, height: 1024 },
  portrait_16_9: { width: 576, height: 1024 },
  landscape_4_3: { width: 1024, height: 768 },
  landscape_16_9: { width: 1024, height: 576 },
};

/** About one megapixel at each ratio, rounded to multiples of 64 as diffusion models require. */
export const ASPECT_RATIO_SIZES: Record<string, { width: number; height: number }> = {
  "1:1": { width: 1024, height: 1024 },
  "16:9": { width: 1344, height: 768 },
  "9:16": { width: 768, height: 1344 },
  "4:3": { width: 1152, height: 896 },
  "3:4": { width: 896, height: 1152 },
  "3:2": { width: 1216, height: 832 },
  "2:3": { width: 832, height: 1216 },
  "21:9": { width: 1536, height: 640 },
  "9:21": { width: 640, height: 1536 },
};

/** What a model renders when the request names no size. */
export const DEFAULT_IMAGE_SIZE = IMAGE_SIZE_PRESETS.square_hd!;
