import Link from "next/link";
import { useLocale, useTranslations } from "next-intl";
import { formatFor } from "@/lib/i18n/format";
import type { ModelListItem } from "@/lib/catalog/columns";
import { exampleImageUrl } from "@/lib/catalog/example-url";
import { localCategory } from "./category-label";
import { localDescription } from "./local-description";
import { modelHref } from "./links";
import { PriceTag } from "./price-tag";

/**
 * The catalog's cards. Links are not prefetched: a page holds up to 24 of them and a visitor opens
 * one or two (the first few are, as the likeliest).
 */
export function ModelGrid({ items }: { items: ModelListItem[] }) {
  const t = useTranslations("catalog");
  const locale = useLocale();
  const f = formatFor(locale);
  if (items.length === 0) {
    return <p className="rounded-lg border border-dashed border-slate-300 bg-white p-10 text-center text-slate-600">{t("empty")}</p>;
  }
  return (
    <ul className="grid gap-4 sm:grid-cols-2 xl:grid-cols-3" data-testid="model-grid">
      {items.map((m, i) => {
        const description = localDescription(m, locale);
        return (
          <li key={m.modelId}>
            <Link
              href={modelHref(m.modelId)}
              prefetch={i < 3 ? undefined : false}
              className="group flex h-full flex-col overflow-hidden rounded-lg border border-slate-200 bg-white shadow-sm transition hover:border-brand-500 hover:shadow"
            >
              {/* The model's example output (lib/catalog/example-output.ts); the link's text names the model. */}
              {/* eslint-disable-next-line @next/next/no-img-element -- small JPEGs the app renders and caches, or an admin's URL */}
              <img
                src={exampleImageUrl(m)}
                alt=""
                width={480}
                height={300}
                className="aspect-[8/5] w-full bg-slate-200 object-cover"
                loading="lazy"
                data-testid="model-example"
              />
              <div className="flex flex-1 flex-col gap-2 p-4">
                <div className="flex items-start justify-between gap-2">
                  <h3 className="font-semibold text-slate-900 group-hover:text-brand-700" translate="no">
                    {m.displayName}
                  </h3>
                  <span className="shrink-0 rounded-full bg-slate-100 px-2 py-0.5 text-xs text-slate-600">
                    {localCategory(t, m.category)}
                  </span>
                </div>
                <p className="font-mono text-xs text-slate-600">{m.modelId}</p>
                <p className="line-clamp-2 text-sm text-slate-600" lang={description.lang} data-testid="model-description">
                  {description.text}
                </p>
                <div className="mt-auto flex flex-wrap items-baseline justify-between gap-x-3 gap-y-1 pt-2">
                  <PriceTag model={m} />
                  <span className="text-xs text-slate-600" data-testid="typical-cost" title={t("typicalRunNote")}>
                    {t("typicalRun", { cost: f.rubles(m.typicalCostRub, "charge") })}
                  </span>
                </div>
                <div className="flex flex-wrap items-center justify-between gap-2 text-xs text-slate-600">
                  <span data-testid="model-activity">
                    {m.runs > 0 ? t("runs", { count: m.runs }) : t("noRuns")}
                    {m.typicalRunSeconds !== null && <> · {t("runTime", { time: f.duration(m.typicalRunSeconds * 1000) })}</>}
                  </span>
                  <span translate={m.modelLab ? "no" : undefined}>{m.modelLab ?? t("communityLab")}</span>
                </div>
              </div>
            </Link>
          </li>
        );
      })}
    </ul>
  );
}
