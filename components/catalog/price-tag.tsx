import { useLocale, useTranslations } from "next-intl";
import type { PriceUnit } from "@/db/schema/models";
import { formatFor } from "@/lib/i18n/format";
import { displayPrice } from "./format";

export function PriceTag({
  model,
  size = "sm",
}: {
  model: {
    priceRub: number | null;
    originalPriceRub: number | null;
    priceUnit: PriceUnit | null;
    discountPercent: number;
    creditCost: number;
  };
  size?: "sm" | "lg";
}) {
  const t = useTranslations("catalog");
  const p = displayPrice(model, formatFor(useLocale()));
  return (
    <span className={`inline-flex flex-wrap items-baseline gap-x-1.5 ${size === "lg" ? "text-lg" : "text-sm"}`}>
      <span className="font-semibold text-slate-900" data-testid="unit-price">
        {p.price}
      </span>
      <span className="text-slate-600">{t("per", { unit: p.unit })}</span>
      {p.listPrice && (
        <>
          <s className="text-slate-600">{p.listPrice}</s>
          <span className="rounded bg-emerald-50 px-1.5 py-0.5 text-xs font-medium text-emerald-700">−{p.discountPercent}%</span>
        </>
      )}
    </span>
  );
}
