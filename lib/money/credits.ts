/**
 * Units of money. The ledger counts integer credits: 1 credit = 0.0001 ₽ (the smallest accounting
 * unit), so 1 ₽ = 10,000 credits and 1 kopeck = 100 credits. Conversions to rubles happen only at
 * the edges (JSON `*Rub` fields, display); nothing converts back from a float.
 */
export const CREDITS_PER_RUB = 10_000;
export const CREDITS_PER_KOPECK = 100;

/** Whole rubles → credits (exact). */
export function rubToCredits(rub: number): number {
  if (!Number.isSafeInteger(rub)) throw new RangeError(`whole rubles expected, got ${rub}`);
  return rub * CREDITS_PER_RUB;
}

export function kopecksToCredits(kopecks: number): number {
  if (!Number.isSafeInteger(kopecks)) throw new RangeError(`whole kopecks expected, got ${kopecks}`);
  return kopecks * CREDITS_PER_KOPECK;
}

/**
 * Credits → rubles as a JSON number (e.g. `balance_rub`, `cost_rub`). Exact for every value with
 * four decimals that a double can hold; never fed back into arithmetic.
 */
export function creditsToRub(credits: number): number {
  const sign = credits < 0 ? "-" : "";
  const abs = Math.abs(credits);
  return Number(`${sign}${Math.trunc(abs / CREDITS_PER_RUB)}.${String(abs % CREDITS_PER_RUB).padStart(4, "0")}`);
}

/** Credits → whole rubles, rounded down (e.g. `lifetimeCostRub`). */
export function creditsToWholeRub(credits: number): number {
  return Math.trunc(credits / CREDITS_PER_RUB);
}

/** Credits → "1 234,56 ₽" for people; shows sub-kopeck digits only when there are any. */
export function formatRub(credits: number, locale = "ru-RU"): string {
  const rub = creditsToRub(credits);
  const fractionDigits = credits % CREDITS_PER_KOPECK === 0 ? 2 : 4;
  return `${rub.toLocaleString(locale, { minimumFractionDigits: 2, maximumFractionDigits: fractionDigits })} ₽`;
}
