"use client";

import { useTranslations } from "next-intl";
import { useRouter } from "next/navigation";
import { useEffect, useRef, useTransition } from "react";
import type { CatalogState } from "./links";

const sorts = [
  ["popular", "sortPopular"],
  ["newest", "sortNewest"],
  ["price_asc", "sortPrice"],
  ["by_category", "sortCategory"],
] as const;

/** How long typing pauses before the list follows it. */
const DEBOUNCE_MS = 300;

/** The form's query as the catalog's URL: empty fields left out, so `?search=` never lingers. */
function urlOf(form: HTMLFormElement): string {
  const params = new URLSearchParams();
  for (const [name, value] of new FormData(form)) if (typeof value === "string" && value.trim() !== "") params.set(name, value.trim());
  if (params.get("sort") === "popular") params.delete("sort");
  const q = params.toString();
  return q ? `/catalog?${q}` : "/catalog";
}

/**
 * A plain GET form (works without JavaScript; the URL holds the state). With JavaScript, the list
 * follows the search as it is typed (debounced) and the sort and community controls on change,
 * in place: the URL is replaced, the field keeps its focus, the results say they are loading.
 */
export function SearchBar({ state }: { state: CatalogState }) {
  const t = useTranslations("catalog");
  const router = useRouter();
  const [pending, start] = useTransition();
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  const go = (form: HTMLFormElement | null, replace: boolean) => {
    clearTimeout(timer.current);
    if (!form) return;
    const url = urlOf(form);
    start(() => (replace ? router.replace(url, { scroll: false }) : router.push(url, { scroll: false })));
  };
  const submit = (e: React.ChangeEvent<HTMLSelectElement | HTMLInputElement>) => go(e.currentTarget.form, false);
  const typed = (e: React.ChangeEvent<HTMLInputElement>) => {
    const form = e.currentTarget.form;
    clearTimeout(timer.current);
    timer.current = setTimeout(() => go(form, true), DEBOUNCE_MS);
  };
  return (
    <form
      method="get"
      action="/catalog"
      role="search"
      aria-busy={pending}
      data-pending={pending ? "true" : undefined}
      className="flex flex-wrap items-center gap-3"
      onSubmit={(e) => {
        e.preventDefault();
        go(e.currentTarget, false);
      }}
    >
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
        onChange={typed}
        className="min-w-0 flex-1 basis-64 rounded-md border border-slate-300 bg-white px-3 py-2 text-sm focus:border-brand-500 focus:outline-none focus:ring-1 focus:ring-brand-500"
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
      <span role="status" className="text-sm text-slate-600" data-testid="search-status">
        {pending ? t("searching") : ""}
      </span>
    </form>
  );
}
