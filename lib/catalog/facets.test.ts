import { describe, expect, test } from "vitest";
import { getDb } from "@/db/client";
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
});
