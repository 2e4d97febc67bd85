import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import { publicContext } from "@/lib/auth/context";
import { CatalogFilters } from "@/components/catalog/catalog-filters";
import { catalogHref, type CatalogState } from "@/components/catalog/links";
import { ModelGrid } from "@/components/catalog/model-grid";
import { Pagination } from "@/components/catalog/pagination";
import { SearchBar } from "@/components/catalog/search-bar";
import { PageHeader } from "@/components/ui/card";
import { Disclosure } from "@/components/ui/disclosure";
import { listModelsQuery } from "@/lib/catalog/list-query";
import { catalogFacets } from "@/lib/catalog/facets";
import { listModels } from "@/lib/catalog/list";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("catalog");
  return { title: t("title"), description: t("description") };
}

const PAGE_SIZE = 24;
type SearchParams = Promise<Record<string, string | string[] | undefined>>;

/** The URL's query, read like the API reads it; a bad value falls back to its default. */
function stateOf(raw: Record<string, string | string[] | undefined>): { state: CatalogState; invalid: string[] } {
  const flat = Object.fromEntries(
    Object.entries(raw)
      .map(([k, v]) => [k, Array.isArray(v) ? v.at(-1) : v])
      .filter(([, v]) => v !== undefined),
  );
  if (flat.limit === undefined) flat.limit = String(PAGE_SIZE);
  const parsed = listModelsQuery.safeParse(flat);
  if (parsed.success) return { state: parsed.data, invalid: [] };
  const bad = new Set(parsed.error.issues.map((i) => String(i.path[0])));
  const kept = Object.fromEntries(Object.entries(flat).filter(([k]) => !bad.has(k)));
  return { state: listModelsQuery.parse({ limit: String(PAGE_SIZE), ...kept }), invalid: [...bad] };
}

// The public catalog: server-rendered (indexable), every filter in the URL.
export default async function CatalogPage({ searchParams }: { searchParams: SearchParams }) {
  const { state, invalid } = stateOf(await searchParams);
  const { db } = await publicContext();
  const [result, facets] = await Promise.all([listModels(db, state), catalogFacets(db, state)]);
  const t = await getTranslations("catalog");
  const filtered = Boolean(state.search || state.category.length || state.lab.length || state.tag.length);
  return (
    <div className="mx-auto max-w-7xl px-4 py-10">
      <PageHeader title={t("title")} description={t("description")} />
      <SearchBar state={state} />
      {invalid.length > 0 && <p className="mt-3 text-sm text-amber-700">{t("ignored", { list: invalid.join(", ") })}</p>}
      <div className="mt-6 grid gap-6 lg:mt-8 lg:grid-cols-[14rem_1fr] lg:gap-8">
        <aside aria-label={t("filters")}>
          <Disclosure from="lg" testId="catalog-filters" label={filtered ? t("filtersActive") : t("filters")} panelClassName="max-lg:mt-4">
            <CatalogFilters state={state} facets={facets} />
          </Disclosure>
        </aside>
        <section id="models" tabIndex={-1} aria-label={t("results")} className="min-w-0 scroll-mt-4 focus:outline-none">
          <div className="mb-4 flex items-center justify-between">
            <p className="text-sm text-slate-600" data-testid="result-count">
              {t("count", { count: result.total })}
            </p>
            {filtered && (
              <a
                href={catalogHref({ ...state, search: undefined, category: [], lab: [], tag: [] })}
                className="text-sm text-brand-700 hover:underline"
              >
                {t("clear")}
              </a>
            )}
          </div>
          <ModelGrid items={result.items} />
          <Pagination state={state} total={result.total} />
        </section>
      </div>
    </div>
  );
}
