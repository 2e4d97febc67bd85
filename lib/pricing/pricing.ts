import type { PriceUnit } from "@/db/schema/models";
import { toSafeCredits, creditsToRub, CREDIT_SCALE } from "./credits";
import { ceilDiv, decimalToNumber, normalize, parseDecimal, pow10, type Decimal } from "./decimal";
import { quantityFromInput, quantityFromOutput } from "./quantity";

/**
 * The one pricing module: estimates (`POST /models/{id}/estimate`, the catalog page) and the
 * generation billing (reserve from the input, settle from the output) all quote here.
 *
 * Charge = ceil(priceRub × quantity × (100 − discountPercent) / 100, 0.0001 ₽), computed in
 * BigInt from the decimal strings with a single ceil at the end: price × pixels × images ×
 * (100 − discount) passes 2^53 easily, and a float anywhere would make charges drift by a credit.
 * There is no 1 ₽ floor: a sub-kopeck model stays sub-kopeck (0.00035 ₽ × 3 → 0.0011 ₽).
 */
export type PricedModel = {
  /** Exact price per unit (Postgres numeric string); null → the fixed `creditCost` per request. */
  priceRub: string | null;
  priceUnit: PriceUnit | null;
  /** 0–100, numeric string or number. */
  discountPercent: string | number;
  /** Whole rubles per request, used only when the model has no priceRub. */
  creditCost: number;
};

export type Quote = {
  /** The unit the quantity counts (a model without priceRub is priced per `request`). */
  unit: PriceUnit;
  quantity: Decimal;
  /** Unit price before the discount. */
  listPriceRub: Decimal;
  /** Unit price after the discount, exact (not rounded). */
  unitPriceRub: Decimal;
  discountPercent: Decimal;
  /** The charge: ceil to 0.0001 ₽, in credits. */
  credits: number;
};

/** Differences of 0.01 ₽ or less between reserve and settle are ignored (spec "Pricing rules"). */
export const SETTLE_TOLERANCE_CREDITS = 100;

export class PricingError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "PricingError";
  }
}

/** The price terms of a model: its unit price and unit, or the creditCost fallback per request. */
export function priceTerms(model: PricedModel): { unit: PriceUnit; listPriceRub: Decimal; discountPercent: Decimal } {
  const discountPercent = parseDecimal(model.discountPercent);
  if (discountPercent.units < 0n || discountPercent.units > 100n * pow10(discountPercent.scale)) {
    throw new PricingError(`discountPercent ${model.discountPercent} is outside 0–100`);
  }
  if (model.priceRub === null) {
    return { unit: "request", listPriceRub: parseDecimal(model.creditCost), discountPercent };
  }
  const listPriceRub = parseDecimal(model.priceRub);
  if (listPriceRub.units < 0n) throw new PricingError(`priceRub ${model.priceRub} is negative`);
  return { unit: model.priceUnit ?? "request", listPriceRub, discountPercent };
}

/** Price × quantity with the discount applied, rounded up once to 0.0001 ₽. */
export function quote(model: PricedModel, quantity: Decimal): Quote {
  const { unit, listPriceRub: p, discountPercent: d } = priceTerms(model);
  if (quantity.units < 0n) throw new PricingError("quantity is negative");
  // (100 − d) scaled by 10^d.scale, so the discount factor is keep / (100 · 10^d.scale).
  const keep = 100n * pow10(d.scale) - d.units;
  const numerator = p.units * quantity.units * keep * pow10(CREDIT_SCALE);
  const denominator = pow10(p.scale + quantity.scale + d.scale) * 100n;
  return {
    unit,
    quantity: normalize(quantity),
    listPriceRub: p,
    unitPriceRub: normalize({ units: p.units * keep, scale: p.scale + d.scale + 2 }),
    discountPercent: d,
    credits: toSafeCredits(ceilDiv(numerator, denominator)),
  };
}

/**
 * The list price (before the discount) whose discounted unit price is exactly `unitPriceRub`,
 * with at most `maxScale` decimals; null when there is none (e.g. 1 ₽ at 30 % off would need
 * 1.428571… ₽, and at 100 % off every list price gives 0).
 */
export function listPriceFor(unitPriceRub: Decimal, discountPercent: Decimal, maxScale: number): Decimal | null {
  const keep = 100n * pow10(discountPercent.scale) - discountPercent.units;
  if (keep <= 0n || unitPriceRub.units < 0n) return null;
  // list = unit × 100 · 10^d.scale / keep, at maxScale decimals.
  const numerator = unitPriceRub.units * 100n * pow10(discountPercent.scale) * pow10(maxScale);
  const denominator = keep * pow10(unitPriceRub.scale);
  if (numerator % denominator !== 0n) return null;
  return normalize({ units: numerator / denominator, scale: maxScale });
}

/** The reserve-time quote: quantity from the request (num_images, image_size, duration, text…). */
export function quoteForInput(model: PricedModel, input: Record<string, unknown>): Quote {
  return quote(model, quantityFromInput(priceTerms(model).unit, input));
}

/**
 * The settle-time quote: quantity from what was actually produced (images and their sizes,
 * seconds of video or audio), falling back to the request where the output does not say.
 */
export function quoteForOutput(model: PricedModel, output: Record<string, unknown>, input: Record<string, unknown>): Quote {
  return quote(model, quantityFromOutput(priceTerms(model).unit, output, input));
}

/**
 * What settling moves after a job: positive = charge this much more, negative = refund, 0 when
 * the difference is within 0.01 ₽ (ignored by the pricing rules).
 */
export function settlementDelta(reservedCredits: number, actualCredits: number): number {
  const delta = actualCredits - reservedCredits;
  return Math.abs(delta) <= SETTLE_TOLERANCE_CREDITS ? 0 : delta;
}

/** A quote as the API shows it. */
export function quoteSummary(q: Quote) {
  return {
    estimatedCostRub: creditsToRub(q.credits),
    estimatedCostCredits: q.credits,
    estimatedPriceRub: decimalToNumber(q.unitPriceRub),
    priceUnit: q.unit,
    quantity: decimalToNumber(q.quantity),
    currency: "RUB" as const,
  };
}
