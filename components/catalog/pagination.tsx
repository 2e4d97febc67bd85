import { useLocale, useTranslations } from "next-intl";
import Link from "next/link";
import { formatFor } from "@/lib/i18n/format";
import { catalogHref, type CatalogState } from "./links";

export function Pagination({ state, total }: { state: CatalogState; total: number }) {
  const t = useTranslations("catalog");
  const f = formatFor(useLocale());
  // Past the end (an offset beyond the total): no range to show, only the way back.
  if (total === 0) return null;
  const from = Math.min(state.offset + 1, total + 1);
  const to = Math.min(state.offset + state.limit, total);
  const prev = state.offset > 0 ? catalogHref(state, { offset: Math.max(0, state.offset - state.limit) }) : null;
  const next = to < total ? catalogHref(state, { offset: state.offset + state.limit }) : null;
  const link = "rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm text-slate-700 hover:bg-slate-50";
  return (
    <nav aria-label={t("pages")} className="mt-6 flex items-center justify-between">
      <p className="text-sm text-slate-600">
        {from <= to ? t("range", { from: f.number(from), to: f.number(to), total: f.number(total) }) : t("count", { count: total })}
      </p>
      <div className="flex gap-2">
        {prev ? (
          <Link href={prev} className={link} rel="prev" prefetch={false}>
            {t("previous")}
          </Link>
        ) : null}
        {next ? (
          <Link href={next} className={link} rel="next">
            {t("next")}
          </Link>
        ) : null}
      </div>
    </nav>
  );
}
