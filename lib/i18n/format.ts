import type { PriceUnit } from "@/db/schema/models";
import { CREDIT_SCALE } from "@/lib/pricing/credits";
import { normalize, parseDecimal, type Decimal } from "@/lib/pricing/decimal";
import type { Locale } from "../core/locales";

/**
 * The locale's thousands and decimal separators, as Intl prints them: "1,234.5" in English,
 * "1 234,5" in Russian (ICU's ru grouping is the no-break space U+00A0, not the narrow U+202F).
 */
const SEPARATORS: Record<Locale, { group: string; decimal: string }> = {
  en: { group: ",", decimal: "." },
  ru: { group: "\u00a0", decimal: "," },
};

/** Between the amount and "₽": a no-break space, so the sign never wraps onto a line of its own. */
const RUB = "\u00a0₽";

/**
 * What an amount of money is, which decides its digits:
 * - `balance`: a balance, a payment, a top-up, a grant: to the kopeck, always two decimals. A
 *   balance holding a fraction of a kopeck (a run's charge can be 0.0011 ₽) shows the kopecks it
 *   holds in full, rounded down, never more than is there; `exactMoney` gives the exact amount for
 *   the page to offer (the `Money` component puts it in a title).
 * - `charge`: what a run cost or will cost, a total of charges: every digit it has (down to
 *   0.0001 ₽), trailing zeros trimmed, at least two decimals.
 * - `unitPrice`: a price per unit, which may be finer than the ledger (0.00035 ₽ per image): as
 *   `charge`, every digit kept.
 */
export type MoneyKind = "balance" | "charge" | "unitPrice";

const KOPECK_SCALE = 2;

function grouped(whole: string, locale: Locale): string {
  return whole.replace(/\B(?=(\d{3})+(?!\d))/g, SEPARATORS[locale].group);
}

/** An exact ruble decimal as the page shows it: `scale` decimals exactly when given, else every digit (at least two). */
function rubText(d: Decimal, locale: Locale, scale?: number): string {
  let { units, scale: s } = normalize(d);
  // BigInt division truncates toward zero: a balance shows only kopecks it really holds.
  if (scale !== undefined && s > scale) [units, s] = [units / 10n ** BigInt(s - scale), scale];
  const negative = units < 0n;
  const digits = (negative ? -units : units).toString().padStart(s + 1, "0");
  const whole = digits.slice(0, digits.length - s);
  const fraction = digits.slice(digits.length - s).padEnd(scale ?? KOPECK_SCALE, "0");
  return `${negative && units !== 0n ? "-" : ""}${grouped(whole, locale)}${SEPARATORS[locale].decimal}${fraction}${RUB}`;
}

const fromCredits = (credits: number | bigint): Decimal => {
  if (typeof credits === "number" && !Number.isSafeInteger(credits)) throw new RangeError(`whole credits expected, got ${credits}`);
  return { units: BigInt(credits), scale: CREDIT_SCALE };
};
const fromRubles = (rub: string | number | Decimal): Decimal => (typeof rub === "object" ? rub : parseDecimal(rub));

/**
 * The one way money reaches a page: an integer amount of credits (1 credit = 0.0001 ₽, the
 * ledger's unit) as rubles in the locale, with the digits its kind calls for (`MoneyKind`).
 * "500.00 ₽" / "500,00 ₽" (balance), "0.0011 ₽" / "0,0011 ₽" (charge).
 */
export function formatMoney(credits: number | bigint, kind: MoneyKind, locale: Locale): string {
  return rubText(fromCredits(credits), locale, kind === "balance" ? KOPECK_SCALE : undefined);
}

/** The same for an amount already in rubles (a unit price "0.00035", a minimum top-up of 100). */
export function formatRubles(rub: string | number | Decimal, kind: MoneyKind, locale: Locale): string {
  return rubText(fromRubles(rub), locale, kind === "balance" ? KOPECK_SCALE : undefined);
}

/**
 * The exact amount when `formatMoney(credits, "balance")` had to leave digits out (a balance
 * holding a fraction of a kopeck), so the page never hides that the kopecks shown are not all of
 * it; null when the kopecks are the whole amount.
 */
export function exactMoney(credits: number | bigint, locale: Locale): string | null {
  const d = normalize(fromCredits(credits));
  return d.scale > KOPECK_SCALE ? rubText(d, locale) : null;
}

const MONTHS: Record<Locale, string[]> = {
  en: ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"],
  ru: ["янв.", "февр.", "мар.", "апр.", "мая", "июн.", "июл.", "авг.", "сент.", "окт.", "нояб.", "дек."],
};

const UNITS: Record<Locale, Record<PriceUnit, { one: string; few: string; many: string }>> = {
  en: {
    image: { one: "image", few: "images", many: "images" },
    megapixel: { one: "megapixel", few: "megapixels", many: "megapixels" },
    second: { one: "second", few: "seconds", many: "seconds" },
    request: { one: "request", few: "requests", many: "requests" },
    "1k_chars": { one: "1K characters", few: "1K characters", many: "1K characters" },
  },
  ru: {
    image: { one: "изображение", few: "изображения", many: "изображений" },
    megapixel: { one: "мегапиксель", few: "мегапикселя", many: "мегапикселей" },
    second: { one: "секунда", few: "секунды", many: "секунд" },
    request: { one: "запрос", few: "запроса", many: "запросов" },
    "1k_chars": { one: "1K символов", few: "1K символов", many: "1K символов" },
  },
};

/** The plural form for a count: English one/other, Russian one/few/many (fractions take "few"). */
function pluralForm(locale: Locale, n: number): "one" | "few" | "many" {
  if (locale === "en") return n === 1 ? "one" : "many";
  if (!Number.isInteger(n)) return "few";
  const m10 = n % 10;
  const m100 = n % 100;
  if (m10 === 1 && m100 !== 11) return "one";
  if (m10 >= 2 && m10 <= 4 && (m100 < 12 || m100 > 14)) return "few";
  return "many";
}

const pad = (n: number) => String(n).padStart(2, "0");

/**
 * The one formatter of everything a page shows as a number, money or a date, for one locale.
 * Written by hand (no Intl) so the server and every browser print the same characters and a
 * hydrated page never differs from its HTML. Dates are in UTC, labelled so.
 */
export function formatFor(locale: Locale) {
  const { group, decimal } = SEPARATORS[locale];
  const number = (n: number | bigint | string): string => {
    const text = String(n);
    const negative = text.startsWith("-");
    const [whole = "0", fraction] = (negative ? text.slice(1) : text).split(".");
    const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, group);
    return `${negative ? "-" : ""}${grouped}${fraction ? `${decimal}${fraction}` : ""}`;
  };
  const date = (iso: string | Date) => {
    const d = typeof iso === "string" ? new Date(iso) : iso;
    return `${d.getUTCDate()} ${MONTHS[locale][d.getUTCMonth()]} ${d.getUTCFullYear()}`;
  };
  return {
    locale,
    /** 1234567.5 → "1,234,567.5" / "1 234 567,5": every digit kept. */
    number,
    /** Credits as money of a kind (`formatMoney`): "1,234.50 ₽" / "1 234,50 ₽", "0.0011 ₽". */
    money: (credits: number | bigint, kind: MoneyKind) => formatMoney(credits, kind, locale),
    /** Rubles as money of a kind (`formatRubles`): a unit price "0.00035 ₽", a minimum "100.00 ₽". */
    rubles: (rub: string | number | Decimal, kind: MoneyKind) => formatRubles(rub, kind, locale),
    /** The exact amount behind a balance shown to the kopeck, or null when nothing was left out. */
    exactMoney: (credits: number | bigint) => exactMoney(credits, locale),
    /** "25 Nov 2026" / "25 нояб. 2026" (UTC). */
    date,
    /** "25 Nov 2026, 14:05 UTC"; `empty` for a missing time. */
    dateTime: (iso: string | Date | null | undefined, empty = "—") => {
      if (!iso) return empty;
      const d = typeof iso === "string" ? new Date(iso) : iso;
      return `${date(d)}, ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())} UTC`;
    },
    /** A day label for a chart axis: "25 Nov" / "25 нояб.". */
    day: (iso: string) => {
      const d = new Date(iso);
      return `${d.getUTCDate()} ${MONTHS[locale][d.getUTCMonth()]}`;
    },
    /** "3 images", "1.048576 megapixels" / "3 изображения", "1,048576 мегапикселя". */
    quantity: (quantity: number, unit: PriceUnit) => {
      const n = number(quantity);
      if (unit === "1k_chars") return `${n} × ${UNITS[locale]["1k_chars"].one}`;
      return `${n} ${UNITS[locale][unit][pluralForm(locale, quantity)]}`;
    },
    /** A price unit's name after "per": "image" / "изображение". */
    unit: (unit: PriceUnit) => UNITS[locale][unit].one,
    /** Milliseconds as "850 ms", "12.3 s", "2 min 5 s". */
    duration: (ms: number | null | undefined, empty = "—") => {
      if (ms === null || ms === undefined || !Number.isFinite(ms) || ms < 0) return empty;
      const w = locale === "ru" ? { ms: "мс", s: "с", min: "мин" } : { ms: "ms", s: "s", min: "min" };
      if (ms < 1000) return `${number(Math.round(ms))} ${w.ms}`;
      if (ms < 59_950) return `${number((Math.round(ms / 100) / 10).toFixed(1))} ${w.s}`;
      const s = Math.round(ms / 1000);
      return `${Math.floor(s / 60)} ${w.min} ${s % 60} ${w.s}`;
    },
  };
}

export type Format = ReturnType<typeof formatFor>;
