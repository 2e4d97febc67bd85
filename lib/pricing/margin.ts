import { decimalToNumber, parseDecimal, pow10, type Decimal } from "./decimal";

/**
 * What the operator keeps per unit when a provider serves a model: the unit price charged (after
 * the discount) less what the provider charges per unit, and that as a share of the price. Exact
 * in BigInt, numbers only for display; shared by the admin API and its routes editor.
 */
export function unitMargin(
  priceRub: Decimal | string | number,
  costRub: string | number | null,
): { marginRub: number | null; marginPercent: number | null } {
  if (costRub === null) return { marginRub: null, marginPercent: null };
  const price = typeof priceRub === "object" ? priceRub : parseDecimal(priceRub);
  const cost = parseDecimal(costRub);
  const scale = Math.max(price.scale, cost.scale);
  const p = price.units * pow10(scale - price.scale);
  const margin = p - cost.units * pow10(scale - cost.scale);
  // A share of nothing: a free model has a margin in rubles but no percentage.
  if (p === 0n) return { marginRub: decimalToNumber({ units: margin, scale }), marginPercent: null };
  // Hundredths of a percent, rounded half away from zero (BigInt division truncates toward zero).
  const hundredths = (2n * margin * 10_000n + (margin < 0n ? -p : p)) / (2n * p);
  return { marginRub: decimalToNumber({ units: margin, scale }), marginPercent: Number(hundredths) / 100 };
}
