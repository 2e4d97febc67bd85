import type { PriceUnit } from "@/db/schema/models";
import { formatPriceRub } from "@/lib/money/credits";
import { formatDecimal, parseDecimal } from "@/lib/money/decimal";
import { quote } from "@/lib/money/pricing";

export const UNIT_LABELS: Record<PriceUnit, { one: string; many: string }> = {
  image: { one: "image", many: "images" },
  megapixel: { one: "megapixel", many: "megapixels" },
  second: { one: "second", many: "seconds" },
  request: { one: "request", many: "requests" },
  "1k_chars": { one: "1K characters", many: "1K characters" },
};

/** "3 images", "3,145728 megapixels", "10 seconds", "2 × 1K characters". */
export function formatQuantity(quantity: number, unit: PriceUnit): string {
  const n = String(quantity).replace(".", ",");
  if (unit === "1k_chars") return `${n} × 1K characters`;
  return `${n} ${quantity === 1 ? UNIT_LABELS[unit].one : UNIT_LABELS[unit].many}`;
}

type Priced = { priceRub: number | null; priceUnit: PriceUnit | null; discountPercent: number; creditCost: number };

/** The unit price a visitor pays (after discount), the list price, and the unit, for display. */
export function displayPrice(m: Priced) {
  const terms = { priceRub: m.priceRub === null ? null : String(m.priceRub), priceUnit: m.priceUnit, discountPercent: String(m.discountPercent), creditCost: m.creditCost };
  const q = quote(terms, parseDecimal(1));
  return {
    price: formatPriceRub(q.unitPriceRub),
    listPrice: m.discountPercent > 0 ? formatPriceRub(formatDecimal(q.listPriceRub)) : null,
    unit: UNIT_LABELS[q.unit].one,
    discountPercent: m.discountPercent,
  };
}
