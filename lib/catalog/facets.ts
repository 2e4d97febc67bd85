import { desc, isNotNull, and, sql } from "drizzle-orm";
import type { Executor } from "@/db/client";
import { models } from "@/db/schema";
import type { ListModelsQuery } from "./list-query";
import { CATEGORY_ORDER } from "./categories";
import { keptPerVersion } from "./kept";
import { catalogFilter } from "./list";

export type Facet = { value: string; count: number };
export type CatalogFacets = { categories: Facet[]; labs: Facet[]; tags: Facet[] };
type FacetQuery = Pick<ListModelsQuery, "category" | "lab" | "tag" | "search" | "includeCommunity">;

/** A selected value stays listed (so it can be cleared) even when nothing else matches it. */
function keepSelected(facets: Facet[], selected: string[], same: (a: string, b: string) => boolean): Facet[] {
  const missing = selected.filter((s) => !facets.some((f) => same(f.value, s))).map((value) => ({ value, count: 0 }));
  return [...facets, ...missing];
}

/** Distinct filter combinations kept (each answer is a few dozen small rows). */
const keptFacets = keptPerVersion<CatalogFacets>("facets", 512, () => 1);

/**
 * The catalog page's filters with counts that narrow with the other filters: a count says how
 * many models the page would list with that value added. Categories and labs are OR within
 * themselves, so each counts under every other active filter but its own; tags are AND, so a
 * tag counts under all of them (the models that would remain if it were added too).
 *
 * Counting is three aggregates over the matching models, so each filter combination's counts are
 * kept while the catalog is unchanged (`keptPerVersion`, ./kept.ts): a request costs one
 * primary-key read unless the catalog changed or the combination is new. The answer is shared:
 * treat it as read-only.
 */
export async function catalogFacets(db: Executor, q: FacetQuery): Promise<CatalogFacets> {
  const key = JSON.stringify([q.category, q.lab, q.tag, q.search ?? "", q.includeCommunity]);
  return keptFacets(db, key, () => countFacets(db, q));
}

async function countFacets(db: Executor, q: FacetQuery): Promise<CatalogFacets> {
  const n = sql<number>`count(*)`.mapWith(Number);
  const [categories, labs, tags] = await Promise.all([
    db
      .select({ value: models.category, count: n })
      .from(models)
      .where(catalogFilter({ ...q, category: [] }))
      .groupBy(models.category),
    db
      .select({ value: sql<string>`${models.modelLab}`, count: n })
      .from(models)
      .where(and(catalogFilter({ ...q, lab: [] }), isNotNull(models.modelLab)))
      .groupBy(models.modelLab)
      .orderBy(desc(n), models.modelLab)
      .limit(40),
    db
      .select({ value: sql<string>`t.tag`, count: n })
      .from(sql`${models} cross join lateral unnest(${models.tags}) as t(tag)`)
      .where(catalogFilter(q))
      .groupBy(sql`t.tag`)
      .orderBy(desc(n), sql`t.tag`)
      .limit(30),
  ]);
  const rank = (c: string) => {
    const i = (CATEGORY_ORDER as readonly string[]).indexOf(c);
    return i === -1 ? CATEGORY_ORDER.length : i;
  };
  categories.sort((a, b) => rank(a.value) - rank(b.value) || a.value.localeCompare(b.value));
  const exact = (a: string, b: string) => a === b;
  return {
    categories: keepSelected(categories, q.category, exact),
    labs: keepSelected(labs, q.lab, (a, b) => a.toLowerCase() === b.toLowerCase()),
    tags: keepSelected(tags, q.tag, exact),
  };
}
