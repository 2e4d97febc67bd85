import { brand } from "@/lib/core/brand";

/**
 * Exact decimals for money: a value is `units / 10^scale` with `units` a BigInt. Prices arrive as
 * Postgres `numeric` strings ("0.00035") or as JSON numbers, and are never turned into floats
 * before the arithmetic is done.
 */
export type Decimal = { units: bigint; scale: number };

const DECIMAL = /^([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/;

export class DecimalError extends Error {
  constructor(value: unknown) {
    super(`Not a finite decimal number: ${String(value)}`);
    this.name = "DecimalError";
  }
}
const decimalErrors = brand<DecimalError>("decimal-error");
decimalErrors.mark(DecimalError);
export const isDecimalError = decimalErrors.is;

/**
 * Parses "12", "0.00035", "1e-7", "-3.5" or a finite JS number. A number is read through its
 * shortest round-trip representation (`String(0.1)` is "0.1"), which is the value the JSON carried.
 */
export function parseDecimal(value: string | number): Decimal {
  if (typeof value === "number" && !Number.isFinite(value)) throw new DecimalError(value);
  const text = String(value).trim();
  const m = DECIMAL.exec(text);
  if (!m || (m[2] === "" && (m[3] ?? "") === "")) throw new DecimalError(value);
  const [, sign, whole = "", fraction = "", exponent = "0"] = m;
  const exp = Number(exponent);
  if (!Number.isSafeInteger(exp) || Math.abs(exp) > 100) throw new DecimalError(value);
  let units = BigInt((whole + fraction).replace(/^0+(?=\d)/, "") || "0");
  let scale = fraction.length - exp;
  if (scale < 0) {
    units *= 10n ** BigInt(-scale);
    scale = 0;
  }
  if (sign === "-") units = -units;
  return normalize({ units, scale });
}

/** Drops trailing zeros of the fraction: 1.2300 → 1.23 (same value, smallest scale). */
export function normalize(d: Decimal): Decimal {
  let { units, scale } = d;
  while (scale > 0 && units % 10n === 0n) {
    units /= 10n;
    scale -= 1;
  }
  return { units, scale };
}

export function formatDecimal(d: Decimal): string {
  const { units, scale } = normalize(d);
  const negative = units < 0n;
  const digits = (negative ? -units : units).toString().padStart(scale + 1, "0");
  const whole = digits.slice(0, digits.length - scale);
  const fraction = scale > 0 ? `.${digits.slice(digits.length - scale)}` : "";
  return `${negative ? "-" : ""}${whole}${fraction}`;
}

/** For JSON output only (the spec's `number` fields); never feed the result back into billing. */
export const decimalToNumber = (d: Decimal): number => Number(formatDecimal(d));

export const pow10 = (n: number): bigint => 10n ** BigInt(n);

/** ceil(a / b) for a ≥ 0, b > 0. */
export function ceilDiv(a: bigint, b: bigint): bigint {
  if (a < 0n || b <= 0n) throw new RangeError("ceilDiv expects a ≥ 0 and b > 0");
  return (a + b - 1n) / b;
}

export function compareDecimal(a: Decimal, b: Decimal): number {
  const scale = Math.max(a.scale, b.scale);
  const x = a.units * pow10(scale - a.scale);
  const y = b.units * pow10(scale - b.scale);
  return x < y ? -1 : x > y ? 1 : 0;
}
