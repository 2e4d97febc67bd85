import { and, desc, eq, isNotNull, sql } from "drizzle-orm";
import type { Executor } from "@/db/client";
import { models } from "@/db/schema";
import { CATEGORY_ORDER } from "./categories";

/** What the catalog page offers as filters: categories, labs and the most used tags, with counts. */
export async function catalogFacets(db: Executor, includeCommunity: boolean) {
  const where = includeCommunity ? eq(models.visible, true) : and(eq(models.visible, true), isNotNull(models.modelLab));
  const n = sql<number>`count(*)`.mapWith(Number);
  const [categories, labs, tags] = await Promise.all([
    db.select({ value: models.category, count: n }).from(models).where(where).groupBy(models.category),
    db
      .select({ value: sql<string>`${models.modelLab}`, count: n })
      .from(models)
      .where(and(where, isNotNull(models.modelLab)))
      .groupBy(models.modelLab)
      .orderBy(desc(n), models.modelLab)
      .limit(40),
    db
      .select({ value: sql<string>`t.tag`, count: n })
      .from(sql`${models} cross join lateral unnest(${models.tags}) as t(tag)`)
      .where(where)
      .groupBy(sql`t.tag`)
      .orderBy(desc(n), sql`t.tag`)
      .limit(30),
  ]);
  const rank = (c: string) => {
    const i = (CATEGORY_ORDER as readonly string[]).indexOf(c);
    return i === -1 ? CATEGORY_ORDER.length : i;
  };
  categories.sort((a, b) => rank(a.value) - rank(b.value) || a.value.localeCompare(b.value));
  return { categories, labs, tags };
}
