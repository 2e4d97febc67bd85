import { and, arrayContains, asc, count, desc, eq, ilike, inArray, isNotNull, or, sql, type SQL } from "drizzle-orm";
import { escapeLike } from "@/lib/core/escape-like";
import type { Executor } from "@/db/client";
import { modelTypicalCost, models, modelSearchTrigrams } from "@/db/schema";
import type { ListModelsQuery } from "./list-query";
import { CATEGORY_ORDER } from "./categories";
import { listColumns, toListItem, type ModelListItem } from "./columns";
import { keptPerVersion } from "./kept";

/**
 * The WHERE of `GET /models`: visible models; community (modelLab null) only on request;
 * category and lab as IN; tags as AND (`tags @> …`, GIN); search as a case-insensitive substring
 * of modelId, displayName or description, narrowed by the trigram GIN index first.
 */
export function catalogFilter(q: Pick<ListModelsQuery, "category" | "lab" | "tag" | "search" | "includeCommunity">): SQL {
  const where: SQL[] = [eq(models.visible, true)];
  if (!q.includeCommunity) where.push(isNotNull(models.modelLab));
  if (q.category.length) where.push(inArray(models.category, q.category));
  if (q.lab.length)
    where.push(
      inArray(
        sql`lower(${models.modelLab})`,
        q.lab.map((l) => l.toLowerCase()),
      ),
    );
  if (q.tag.length) where.push(arrayContains(models.tags, q.tag));
  if (q.search) {
    // Fewer than three characters have no trigram: the substring test alone decides.
    if ([...q.search].length >= 3) where.push(sql`${modelSearchTrigrams} @> catalog_trigrams(lower(${q.search}::text))`);
    const pattern = `%${escapeLike(q.search)}%`;
    where.push(or(ilike(models.modelId, pattern), ilike(models.displayName, pattern), ilike(models.description, pattern))!);
  }
  return and(...where)!;
}

// Our own constants, inlined as a literal (a bound array parameter is typed differently per driver).
const CATEGORY_ARRAY = sql.raw(`ARRAY[${CATEGORY_ORDER.map((c) => `'${c}'`).join(",")}]::text[]`);

/** Orders end with modelId so pages never overlap or skip under ties. */
export function catalogOrder(sort: ListModelsQuery["sort"]): SQL[] {
  switch (sort) {
    case "popular":
      return [desc(models.popularity), desc(models.publishedAt), asc(models.modelId)];
    case "newest":
      return [desc(models.publishedAt), asc(models.modelId)];
    case "price_asc":
      return [sql`${modelTypicalCost} asc nulls last`, desc(models.popularity), asc(models.modelId)];
    case "by_category":
      return [
        sql`array_position(${CATEGORY_ARRAY}, ${models.category}) asc nulls last`,
        asc(models.category),
        sql`${models.groupLabel} asc nulls last`,
        desc(models.popularity),
        asc(models.modelId),
      ];
  }
}

/** One round trip: the window count rides along with the page. */
export function listModelsQuery(db: Executor, q: ListModelsQuery) {
  return db
    .select({ ...listColumns, total: sql<number>`count(*) over ()`.mapWith(Number) })
    .from(models)
    .where(catalogFilter(q))
    .orderBy(...catalogOrder(q.sort))
    .limit(q.limit)
    .offset(q.offset);
}

/** Pages kept, in listed models (a page of 50 is ~25 kB of objects): ~10,000 models' worth. */
const keptPages = keptPerVersion<ModelListPage>("pages", 10_000, (page) => 1 + page.items.length);
export type ModelListPage = { items: ModelListItem[]; total: number; limit: number; offset: number };

/**
 * A page of `GET /models` (and of the catalog page, the MCP list): the database answers each
 * query once per catalog version (indexes: the trigram and tag GIN, the price, popularity and
 * category btrees), and the page is kept until a write to the catalog moves its version
 * (`keptPerVersion`, ./kept.ts): a repeated query costs one primary-key read. Shared: read-only.
 */
export async function listModels(db: Executor, q: ListModelsQuery): Promise<ModelListPage> {
  const key = JSON.stringify([q.category, q.lab, q.tag, q.search ?? "", q.includeCommunity, q.sort, q.limit, q.offset]);
  return keptPages(db, key, () => queryModels(db, q));
}

async function queryModels(db: Executor, q: ListModelsQuery): Promise<ModelListPage> {
  const where = catalogFilter(q);
  const rows = await listModelsQuery(db, q);
  // A page past the end has no row to carry the count.
  const total = rows[0]?.total ?? (q.offset > 0 ? (await db.select({ n: count() }).from(models).where(where))[0]!.n : 0);
  return { items: rows.map(toListItem), total, limit: q.limit, offset: q.offset };
}
