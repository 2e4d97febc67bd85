import { defaultLocale, type Locale } from "@/lib/core/locales";
import { formatDecimal, parseDecimal, pow10, type Decimal } from "./decimal";

/**
 * The ledger unit: 1 credit = 0.0001 ₽, the smallest accounting unit (DESIGN.md "Money"), so
 * 1 ₽ = 10,000 credits and 1 kopeck = 100 credits. Every integer credits field is exact in this
 * unit; every `…Rub` number is credits / 10,000. Conversions to rubles happen only at the edges
 * (JSON `*Rub` fields, display); nothing converts back from a float.
 */
export const CREDIT_SCALE = 4;
export const CREDITS_PER_RUB = 10_000;
export const CREDITS_PER_KOPECK = 100;

/** An amount in credits as a JS number, refusing values that would lose precision. */
export function toSafeCredits(credits: bigint): number {
  const n = Number(credits);
  if (!Number.isSafeInteger(n)) throw new RangeError(`Credit amount ${credits} is outside the safe integer range`);
  return n;
}

/** Credits → rubles as an exact decimal (0.0001 ₽ steps). */
export const creditsToDecimal = (credits: number | bigint): Decimal => ({ units: BigInt(credits), scale: CREDIT_SCALE });

/** Credits → rubles for JSON (`cost_rub`, `estimatedCostRub`): four decimals at most, so exact in a double. */
export const creditsToRub = (credits: number | bigint): number => Number(formatDecimal(creditsToDecimal(credits)));

/** Credits → whole rubles, rounded toward zero (e.g. `lifetimeCostRub`). */
export const creditsToWholeRub = (credits: number): number => Math.trunc(credits / CREDITS_PER_RUB);

/**
 * Whole or fractional rubles → credits, refusing anything finer than 0.0001 ₽ (a ruble amount a
 * user typed must be representable exactly; quotes round with `ceil` in pricing.ts instead).
 */
export function rubToCredits(rub: string | number): number {
  const d = parseDecimal(rub);
  if (d.scale > CREDIT_SCALE) throw new RangeError(`${rub} ₽ is finer than 0.0001 ₽`);
  return toSafeCredits(d.units * pow10(CREDIT_SCALE - d.scale));
}

export function kopecksToCredits(kopecks: number): number {
  if (!Number.isSafeInteger(kopecks)) throw new RangeError(`whole kopecks expected, got ${kopecks}`);
  return kopecks * CREDITS_PER_KOPECK;
}

/** "1,234.50 ₽" (en) / "1 234,50 ₽" (ru) / "0.0011 ₽": the one formatter for a credits amount shown to people. */
export const formatCredits = (credits: number | bigint, locale: Locale = defaultLocale): string =>
  formatPriceRub(creditsToDecimal(credits), locale);

/** The locale's thousands and decimal separators ("1,234.5" in English, "1 234,5" in Russian). */
export const SEPARATORS: Record<Locale, { group: string; decimal: string }> = {
  en: { group: ",", decimal: "." },
  ru: { group: "\u00a0", decimal: "," },
};

/**
 * Rubles shown to people in the page's locale, with every significant digit kept, so a sub-kopeck
 * price ("0.00035") never displays as "0.00 ₽". Written by hand rather than with Intl so the server
 * and every browser print the same characters.
 */
export function formatPriceRub(price: string | Decimal, locale: Locale = defaultLocale): string {
  const d = typeof price === "string" ? parseDecimal(price) : price;
  const text = formatDecimal(d);
  const negative = text.startsWith("-");
  const [whole = "0", fraction = ""] = (negative ? text.slice(1) : text).split(".");
  const { group, decimal } = SEPARATORS[locale];
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, group);
  const padded = fraction.length < 2 ? fraction.padEnd(2, "0") : fraction;
  return `${negative ? "-" : ""}${grouped}${decimal}${padded} ₽`;
}
