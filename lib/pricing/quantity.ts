import type { PriceUnit } from "@/db/schema/models";
import { ceilDiv, normalize, parseDecimal, type Decimal } from "./decimal";
import { ASPECT_RATIO_SIZES, DEFAULT_IMAGE_SIZE, IMAGE_SIZE_PRESETS } from "./image-sizes";

/**
 * How many units a request (or its result) is, per priceUnit (DESIGN.md "Money"):
 * image → images; megapixel → width×height/1e6 × images; second → requested (or produced)
 * duration; request → 1; 1k_chars → ceil(chars/1000). Quantities are exact decimals.
 */
type Input = Record<string, unknown>;

/** Seconds assumed for a per-second model whose request names no duration; settle corrects it. */
export const DEFAULT_SECONDS = 5;

const int = (n: bigint): Decimal => ({ units: n, scale: 0 });
const isPositiveInt = (v: unknown): v is number => typeof v === "number" && Number.isSafeInteger(v) && v > 0;
const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

export function imageCount(input: Input): number {
  return isPositiveInt(input.num_images) ? input.num_images : 1;
}

/** Pixels of one requested image: image_size preset or {width,height}, width/height, aspect_ratio. */
export function requestedPixels(input: Input): Decimal {
  const size = sizeOf(input);
  let pixels: Decimal = int(BigInt(size.width) * BigInt(size.height));
  // Upscalers: the output is the (unknown) source times the factor squared; assume a 1 MP source.
  const factor = numberish(input.upscale_factor);
  if (factor && factor.units > 0n) {
    pixels = { units: pixels.units * factor.units * factor.units, scale: factor.scale * 2 };
  }
  return pixels;
}

function sizeOf(input: Input): { width: number; height: number } {
  const preset = input.image_size;
  const named = typeof preset === "string" ? IMAGE_SIZE_PRESETS[preset] : undefined;
  if (named) return named;
  if (isRecord(preset) && isPositiveInt(preset.width) && isPositiveInt(preset.height)) {
    return { width: preset.width, height: preset.height };
  }
  if (isPositiveInt(input.width) && isPositiveInt(input.height)) return { width: input.width, height: input.height };
  const ratio = typeof input.aspect_ratio === "string" ? ASPECT_RATIO_SIZES[input.aspect_ratio] : undefined;
  return ratio ?? DEFAULT_IMAGE_SIZE;
}

/** A number, or a numeric string such as "5" or "10s" (video models take durations as enums). */
function numberish(v: unknown): Decimal | null {
  if (typeof v === "number" && Number.isFinite(v) && v >= 0) return parseDecimal(v);
  if (typeof v === "string") {
    const m = /^\s*(\d+(?:\.\d+)?)\s*s?\s*$/i.exec(v);
    if (m) return parseDecimal(m[1]!);
  }
  return null;
}

export function requestedSeconds(input: Input): Decimal {
  for (const field of ["duration", "seconds_total", "duration_seconds", "seconds"]) {
    const d = numberish(input[field]);
    if (d) return d;
  }
  return int(BigInt(DEFAULT_SECONDS));
}

/** Characters (Unicode code points) of the text a model reads: `text`, `prompt` or `input`. */
export function textLength(input: Input): number {
  const source = input.text ?? input.prompt ?? input.input;
  const texts = typeof source === "string" ? [source] : Array.isArray(source) ? source.filter((s) => typeof s === "string") : [];
  return texts.reduce((n, s: string) => n + [...s].length, 0);
}

export function quantityFromInput(unit: PriceUnit, input: Input): Decimal {
  switch (unit) {
    case "image":
      return int(BigInt(imageCount(input)));
    case "megapixel": {
      const px = requestedPixels(input);
      return normalize({ units: px.units * BigInt(imageCount(input)), scale: px.scale + 6 });
    }
    case "second":
      return requestedSeconds(input);
    case "1k_chars":
      return int(ceilDiv(BigInt(textLength(input)), 1000n));
    case "request":
      return int(1n);
  }
}

/**
 * The units of a typical run: the request made of the schema's defaults alone (what the
 * playground starts from). A text model's default request has no text, so it counts one block
 * (1K characters), the least a real request pays. The catalog's "cheapest first" sorts by this
 * times the unit price: the same rule in SQL is `catalog_typical_quantity` (drizzle/0017), the
 * generated column `models.typical_quantity`; lib/catalog/typical.test.ts holds the two equal.
 */
export function typicalQuantity(unit: PriceUnit, defaults: Input): Decimal {
  const q = quantityFromInput(unit, defaults);
  return unit === "1k_chars" && q.units === 0n ? int(1n) : q;
}

type MediaFile = { width?: unknown; height?: unknown; duration?: unknown };

function outputImages(output: Input): MediaFile[] | null {
  if (Array.isArray(output.images)) return output.images.filter(isRecord);
  if (isRecord(output.image)) return [output.image];
  return null;
}

function outputSeconds(output: Input): Decimal | null {
  for (const media of [output.video, output.audio]) {
    if (isRecord(media)) {
      const d = numberish(media.duration);
      if (d) return d;
    }
  }
  const d = numberish(output.duration);
  if (d) return d;
  const ms = numberish(output.duration_ms);
  return ms ? normalize({ units: ms.units, scale: ms.scale + 3 }) : null;
}

/** The settle-time quantity: what the result says was produced, else what was requested. */
export function quantityFromOutput(unit: PriceUnit, output: Input, input: Input): Decimal {
  switch (unit) {
    case "image": {
      const images = outputImages(output);
      return images ? int(BigInt(images.length)) : quantityFromInput(unit, input);
    }
    case "megapixel": {
      const images = outputImages(output);
      if (!images || !images.every((i) => isPositiveInt(i.width) && isPositiveInt(i.height))) {
        return quantityFromInput(unit, input);
      }
      const pixels = images.reduce((sum, i) => sum + BigInt(i.width as number) * BigInt(i.height as number), 0n);
      return normalize({ units: pixels, scale: 6 });
    }
    case "second":
      return outputSeconds(output) ?? quantityFromInput(unit, input);
    case "1k_chars":
    case "request":
      return quantityFromInput(unit, input);
  }
}
