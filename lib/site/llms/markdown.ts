import type { PriceUnit } from "@/db/schema/models";
import { formatDecimal, parseDecimal } from "@/lib/pricing/decimal";
import { quote, type PricedModel } from "@/lib/pricing/pricing";

/** Text placed inside a Markdown link label or a table cell. */
export const inline = (s: string) =>
  s
    .replace(/\s+/g, " ")
    .replace(/([\\[\]|`])/g, "\\$1")
    .trim();

/** The first sentence (or the first 200 characters) of a description. */
export function firstSentence(s: string): string {
  const text = s.replace(/\s+/g, " ").trim();
  const end = text.search(/[.!?](\s|$)/);
  const sentence = end >= 0 ? text.slice(0, end + 1) : text;
  return sentence.length > 200 ? `${sentence.slice(0, 199)}…` : sentence;
}

const UNITS: Record<PriceUnit, string> = {
  image: "image",
  megapixel: "megapixel of output",
  second: "second of output",
  request: "request",
  "1k_chars": "1,000 characters of input",
};

/** "0.0236 ₽ per megapixel of output", with the list price when a discount applies. */
export function priceText(model: PricedModel): string {
  const q = quote(model, parseDecimal(1));
  const price = `${formatDecimal(q.unitPriceRub)} ₽ per ${UNITS[q.unit]}`;
  const discount = Number(formatDecimal(q.discountPercent));
  return discount > 0 ? `${price} (${discount}% off ${formatDecimal(q.listPriceRub)} ₽)` : price;
}
