import { formatDecimal, parseDecimal, pow10 } from "@/lib/pricing/decimal";

/** Kopecks → the provider's amount string ("199.00"): two decimals, exact. */
export function kopecksToValue(kopecks: number): string {
  if (!Number.isSafeInteger(kopecks) || kopecks < 0) throw new RangeError(`whole kopecks expected, got ${kopecks}`);
  const text = formatDecimal({ units: BigInt(kopecks), scale: 2 });
  const [whole, fraction = ""] = text.split(".");
  return `${whole}.${fraction.padEnd(2, "0")}`;
}

/** The provider's amount string → kopecks; refuses anything finer than a kopeck. */
export function valueToKopecks(value: string): number {
  const d = parseDecimal(value);
  if (d.scale > 2) throw new RangeError(`${value} is finer than a kopeck`);
  const kopecks = d.units * pow10(2 - d.scale);
  const n = Number(kopecks);
  if (!Number.isSafeInteger(n)) throw new RangeError(`${value} is out of range`);
  return n;
}
