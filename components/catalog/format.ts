import type { PriceUnit } from "@/db/schema/models";
import type { Format } from "@/lib/i18n/format";
import { parseDecimal } from "@/lib/pricing/decimal";
import { quote } from "@/lib/pricing/pricing";

type Priced = {
  priceRub: number | null;
  originalPriceRub: number | null;
  priceUnit: PriceUnit | null;
  discountPercent: number;
  creditCost: number;
};

/**
 * The unit price a visitor pays, the price before the discount, and the unit, for display in the
 * page's locale. A model's `priceRub` is already the price charged (the discount applied); only a
 * model priced per request (no `priceRub`) is quoted here, from its credit cost.
 */
export function displayPrice(m: Priced, f: Format) {
  if (m.priceRub !== null) {
    return {
      price: f.rubles(m.priceRub, "unitPrice"),
      listPrice: m.discountPercent > 0 && m.originalPriceRub !== null ? f.rubles(m.originalPriceRub, "unitPrice") : null,
      unit: f.unit(m.priceUnit ?? "request"),
      discountPercent: m.discountPercent,
    };
  }
  const terms = { priceRub: null, priceUnit: m.priceUnit, discountPercent: String(m.discountPercent), creditCost: m.creditCost };
  const q = quote(terms, parseDecimal(1));
  return {
    price: f.rubles(q.unitPriceRub, "unitPrice"),
    listPrice: m.discountPercent > 0 ? f.rubles(q.listPriceRub, "unitPrice") : null,
    unit: f.unit(q.unit),
    discountPercent: m.discountPercent,
  };
}
