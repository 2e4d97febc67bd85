import { and, eq, isNotNull, sql } from "drizzle-orm";
import { describe, expect, test } from "vitest";
import { getDb } from "@/db/client";
import { models } from "@/db/schema";
import { upsertModelBody } from "./admin-input";
import { upsertModel } from "./admin-upsert";
import { listModelsQuery } from "./list-query";
import { catalogFacets } from "./facets";
import { listModels } from "./list";

const q = (query: Record<string, string>) => listModelsQuery.parse({ limit: "1", ...query });
const total = async (query: Record<string, string>) => (await listModels(await getDb(), q(query))).total;

describe("success", () => {
  test("with no filter, the category counts add up to the whole catalog", async () => {
    const facets = await catalogFacets(await getDb(), q({}));
    expect(facets.categories.reduce((s, f) => s + f.count, 0)).toBe(await total({}));
  });

  test("a category's count under a lab filter is what the page lists with that category added", async () => {
    const db = await getDb();
    const all = await catalogFacets(db, q({}));
    const lab = all.labs[0]!.value;
    const facets = await catalogFacets(db, q({ lab }));
    expect(facets.categories.length).toBeGreaterThan(0);
    for (const f of facets.categories) expect(f.count).toBe(await total({ lab, category: f.value }));
    // The lab's own list is not narrowed by itself: the other labs still count under no lab filter.
    expect(facets.labs).toEqual(all.labs);
    const sum = facets.categories.reduce((s, f) => s + f.count, 0);
    expect(sum).toBe(await total({ lab }));
    expect(sum).toBeLessThan(all.categories.reduce((s, f) => s + f.count, 0));
  });

  test("tags count the models that would remain with the tag added (AND), search narrows every facet", async () => {
    const db = await getDb();
    const all = await catalogFacets(db, q({}));
    const tag = all.tags[0]!.value;
    const facets = await catalogFacets(db, q({ tag, search: "a" }));
    for (const f of facets.tags.slice(0, 5))
      expect(f.count).toBe(await total({ tag: f.value === tag ? tag : `${tag},${f.value}`, search: "a" }));
    for (const f of facets.labs.slice(0, 5)) expect(f.count).toBe(await total({ tag, search: "a", lab: f.value }));
  });

  test("a selected value nothing matches stays listed with 0, so it can be cleared", async () => {
    const facets = await catalogFacets(await getDb(), q({ category: "text-to-image", search: "zzzz-no-such-model" }));
    expect(facets.categories).toEqual([{ value: "text-to-image", count: 0 }]);
    expect(facets.labs).toEqual([]);
  });

  test("counts are kept while the catalog is unchanged and follow every write to it, whoever makes it", async () => {
    const db = await getDb();
    const count = (f: { categories: { value: string; count: number }[] }, category: string) =>
      f.categories.find((c) => c.value === category)?.count ?? 0;
    const before = await catalogFacets(db, q({}));
    expect(await catalogFacets(db, q({}))).toBe(before);
    const [model] = await db
      .select()
      .from(models)
      .where(and(eq(models.visible, true), isNotNull(models.modelLab)))
      .orderBy(models.modelId)
      .limit(1);
    const category = model!.category;

    // An admin hides a model.
    await upsertModel(db, upsertModelBody.parse({ modelId: model!.modelId, visible: false }));
    const hidden = await catalogFacets(db, q({}));
    expect(count(hidden, category)).toBe(count(before, category) - 1);
    expect(count(hidden, category)).toBe(await total({ category }));

    // A write that is not the admin's (a sync, another instance, SQL): the trigger moves the version too.
    await db.update(models).set({ visible: true }).where(eq(models.modelId, model!.modelId));
    const shown = await catalogFacets(db, q({}));
    expect(shown).toEqual(before);

    // A popularity flush moves the version (lists sort by it); the counts are taken again, the same.
    await db
      .update(models)
      .set({ popularity: sql`${models.popularity} + 1` })
      .where(eq(models.modelId, model!.modelId));
    const counted = await catalogFacets(db, q({}));
    expect(counted).not.toBe(shown);
    expect(counted).toEqual(shown);
  });
});
