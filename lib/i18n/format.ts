import type { PriceUnit } from "@/db/schema/models";
import { formatCredits, formatPriceRub, SEPARATORS } from "@/lib/pricing/credits";
import type { Decimal } from "@/lib/pricing/decimal";
import type { Locale } from "../core/locales";

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
    /** Credits as rubles: "1,234.50 ₽" / "1 234,50 ₽", sub-kopeck digits kept. */
    credits: (credits: number | bigint) => formatCredits(credits, locale),
    /** A ruble amount (a price, "0.00035") as money. */
    rub: (price: string | number | Decimal) => formatPriceRub(typeof price === "number" ? String(price) : price, locale),
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
