import Link from "next/link";
import { useTranslations } from "next-intl";
import { localCategory, localTag } from "./category-label";
import { catalogHref, toggle, type CatalogState } from "./links";

type Facet = { value: string; count: number };

function FacetList({
  title,
  facets,
  selected,
  href,
  label,
  names = false,
}: {
  title: string;
  facets: Facet[];
  selected: string[];
  href: (v: string) => string;
  label: (v: string) => string;
  /** Labels that are names (labs): never translated. */
  names?: boolean;
}) {
  return (
    <section aria-label={title}>
      <h2 className="text-xs font-semibold uppercase tracking-wider text-slate-600">{title}</h2>
      <ul className="mt-2 space-y-0.5">
        {facets.map((f) => {
          const active = selected.includes(f.value);
          return (
            <li key={f.value}>
              <Link
                prefetch={false}
                href={href(f.value)}
                aria-current={active ? "true" : undefined}
                className={`flex items-center justify-between rounded-md px-2 py-1 text-sm ${active ? "bg-brand-50 font-medium text-brand-700" : "text-slate-700 hover:bg-slate-100"}`}
              >
                <span translate={names ? "no" : undefined}>
                  {active ? "✓ " : ""}
                  {label(f.value)}
                </span>
                <span className="text-xs text-slate-600">{f.count}</span>
              </Link>
            </li>
          );
        })}
      </ul>
    </section>
  );
}

export function CatalogFilters({ state, facets }: { state: CatalogState; facets: { categories: Facet[]; labs: Facet[]; tags: Facet[] } }) {
  const t = useTranslations("catalog");
  return (
    <div className="space-y-6">
      <FacetList
        title={t("category")}
        label={(v) => localCategory(t, v)}
        facets={facets.categories}
        selected={state.category}
        href={(v) => catalogHref(state, { category: toggle(state.category, v) })}
      />
      <FacetList
        title={t("lab")}
        label={(v) => v}
        names
        facets={facets.labs}
        selected={state.lab}
        href={(v) => catalogHref(state, { lab: toggle(state.lab, v) })}
      />
      <section aria-label={t("tags")}>
        <h2 className="text-xs font-semibold uppercase tracking-wider text-slate-600">{t("tags")}</h2>
        <div className="mt-2 flex flex-wrap gap-1.5">
          {facets.tags.map((f) => {
            const active = state.tag.includes(f.value);
            const words = localTag(t, f.value);
            return (
              <Link
                prefetch={false}
                key={f.value}
                translate={words === null ? "no" : undefined}
                href={catalogHref(state, { tag: toggle(state.tag, f.value) })}
                aria-current={active ? "true" : undefined}
                className={`rounded-full border px-2 py-0.5 text-xs ${active ? "border-brand-500 bg-brand-50 text-brand-700" : "border-slate-200 bg-white text-slate-600 hover:border-slate-400"}`}
              >
                #{words ?? f.value}
              </Link>
            );
          })}
        </div>
      </section>
    </div>
  );
}
