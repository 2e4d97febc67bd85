import type { PriceUnit } from "@/db/schema/models";
import type { Format } from "@/lib/i18n/format";
import { formatDecimal, parseDecimal } from "@/lib/money/decimal";
import { quote } from "@/lib/money/pricing";

type Priced = { priceRub: number | null; priceUnit: PriceUnit | null; discountPercent: number; creditCost: number };

/** The unit price a visitor pays (after discount), the list price, and the unit, for display in the page's locale. */
export function displayPrice(m: Priced, f: Format) {
  const terms = { priceRub: m.priceRub === null ? null : String(m.priceRub), priceUnit: m.priceUnit, discountPercent: String(m.discountPercent), creditCost: m.creditCost };
  const q = quote(terms, parseDecimal(1));
  return {
    price: f.rub(q.unitPriceRub),
    listPrice: m.discountPercent > 0 ? f.rub(formatDecimal(q.listPriceRub)) : null,
    unit: f.unit(q.unit),
    discountPercent: m.discountPercent,
  };
}
