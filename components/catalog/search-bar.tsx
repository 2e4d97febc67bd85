"use client";

import { useTranslations } from "next-intl";
import type { CatalogState } from "./links";

const sorts = [
  ["popular", "sortPopular"],
  ["newest", "sortNewest"],
  ["price_asc", "sortPrice"],
  ["by_category", "sortCategory"],
] as const;

/**
 * A plain GET form (works without JavaScript; the URL holds the state). With JavaScript, the sort
 * and community controls submit on change.
 */
export function SearchBar({ state }: { state: CatalogState }) {
  const t = useTranslations("catalog");
  const submit = (e: React.ChangeEvent<HTMLSelectElement | HTMLInputElement>) => e.currentTarget.form?.requestSubmit();
  return (
    <form method="get" action="/catalog" role="search" className="flex flex-wrap items-center gap-3">
      {state.category.length > 0 && <input type="hidden" name="category" value={state.category.join(",")} />}
      {state.lab.length > 0 && <input type="hidden" name="lab" value={state.lab.join(",")} />}
      {state.tag.length > 0 && <input type="hidden" name="tag" value={state.tag.join(",")} />}
      <input
        type="search"
        name="search"
        defaultValue={state.search ?? ""}
        maxLength={64}
        placeholder={t("searchPlaceholder")}
        aria-label={t("searchLabel")}
        className="min-w-64 flex-1 rounded-md border border-slate-300 bg-white px-3 py-2 text-sm focus:border-brand-500 focus:outline-none focus:ring-1 focus:ring-brand-500"
      />
      <select
        name="sort"
        defaultValue={state.sort}
        onChange={submit}
        aria-label={t("sort")}
        className="rounded-md border border-slate-300 bg-white px-3 py-2 text-sm"
      >
        {sorts.map(([value, label]) => (
          <option key={value} value={value}>
            {t(label)}
          </option>
        ))}
      </select>
      <label className="flex items-center gap-2 text-sm text-slate-700">
        <input type="checkbox" name="includeCommunity" value="true" defaultChecked={state.includeCommunity} onChange={submit} />
        {t("community")}
      </label>
      <button type="submit" className="rounded-md bg-brand-600 px-4 py-2 text-sm font-medium text-white hover:bg-brand-700">
        {t("search")}
      </button>
    </form>
  );
}
