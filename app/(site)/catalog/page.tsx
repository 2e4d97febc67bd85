import type { Metadata } from "next";
import { getDb } from "@/db/client";
import { CatalogFilters } from "@/components/catalog/catalog-filters";
import { catalogHref, type CatalogState } from "@/components/catalog/links";
import { ModelGrid } from "@/components/catalog/model-grid";
import { Pagination } from "@/components/catalog/pagination";
import { SearchBar } from "@/components/catalog/search-bar";
import { PageHeader } from "@/components/ui/card";
import { listModelsQuery } from "@/lib/api/contracts/models";
import { catalogFacets } from "@/lib/catalog/facets";
import { listModels } from "@/lib/catalog/list";

export const metadata: Metadata = {
  title: "Models",
  description: "Image, video, speech, music, 3D and embedding models with exact per-unit prices in rubles.",
};

const PAGE_SIZE = 24;
type SearchParams = Promise<Record<string, string | string[] | undefined>>;

/** The URL's query, read like the API reads it; a bad value falls back to its default. */
function stateOf(raw: Record<string, string | string[] | undefined>): { state: CatalogState; invalid: string[] } {
  const flat = Object.fromEntries(Object.entries(raw).map(([k, v]) => [k, Array.isArray(v) ? v.at(-1) : v]).filter(([, v]) => v !== undefined));
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
  const db = await getDb();
  const [result, facets] = await Promise.all([listModels(db, state), catalogFacets(db, state.includeCommunity)]);
  const filtered = Boolean(state.search || state.category.length || state.lab.length || state.tag.length);
  return (
    <div className="mx-auto max-w-7xl px-4 py-10">
      <PageHeader
        title="Models"
        description="Every model has a JSON Schema for its input and an exact price per unit. Prices are in rubles; 1 credit = 0.0001 ₽."
      />
      <SearchBar state={state} />
      {invalid.length > 0 && <p className="mt-3 text-sm text-amber-700">Ignored invalid parameters: {invalid.join(", ")}.</p>}
      <div className="mt-8 grid gap-8 lg:grid-cols-[14rem_1fr]">
        <aside>
          <CatalogFilters state={state} facets={facets} />
        </aside>
        <section aria-label="Results">
          <div className="mb-4 flex items-center justify-between">
            <p className="text-sm text-slate-600" data-testid="result-count">
              {result.total} {result.total === 1 ? "model" : "models"}
            </p>
            {filtered && (
              <a href={catalogHref({ ...state, search: undefined, category: [], lab: [], tag: [] })} className="text-sm text-brand-700 hover:underline">
                Clear filters
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
