import { eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, test } from "vitest";
import { getDb, rawRows } from "@/db/client";
import { catalogBenchQueries, syntheticModels } from "@/bench/scenarios/catalog-models";
import { models } from "@/db/schema";
import { listModelsQuery as querySchema } from "./list-query";
import { listModels, listModelsQuery } from "./list";

/**
 * The catalog must be served by indexes, not by scanning: with a few thousand models loaded and
 * statistics gathered, the planner picks the trigram, tag and price indexes for the queries the
 * catalog page and the benchmark send.
 */
const N = 5000;
const synthetic = syntheticModels(N);

beforeAll(async () => {
  const db = await getDb();
  for (let i = 0; i < N; i += 500) await db.insert(models).values(synthetic.slice(i, i + 500) as (typeof models.$inferInsert)[]);
  await db.execute(sql`analyze models`);
});

const parse = (query: Record<string, string>) => querySchema.parse(query);
const plan = async (query: Record<string, string>) => {
  const db = await getDb();
  const rows = await rawRows<Record<string, string>>(db, sql`explain ${listModelsQuery(db, parse(query))}`);
  return rows.map((r) => Object.values(r)[0]).join("\n");
};

describe("indexes serve the catalog queries", () => {
  test("search uses the trigram GIN index", async () => {
    expect(await plan({ search: "lumen" })).toContain("models_search_trgm_gin");
  });

  test("a rare tag uses the tags GIN index", async () => {
    expect(await plan({ tag: "food" })).toContain("models_tags_gin");
  });

  test("search + tag + price_asc (the benchmark's queries) start from the trigram index, even with a common tag", async () => {
    for (const query of catalogBenchQueries) {
      const text = await plan(Object.fromEntries(new URLSearchParams(query)));
      expect(text).toContain("models_search_trgm_gin");
      expect(text).not.toMatch(/Seq Scan on models/);
    }
  });

  test("results stay exact on the larger table", async () => {
    const db = await getDb();
    const query = { search: "PRISM", tag: "realism,fast", includeCommunity: "true", limit: "200", sort: "price_asc" };
    const res = await listModels(db, parse(query));
    const expected = synthetic.filter(
      (m) =>
        m.tags.includes("realism") &&
        m.tags.includes("fast") &&
        [m.modelId, m.displayName, m.description].some((f) => f.toLowerCase().includes("prism")),
    );
    expect(res.total).toBe(expected.length);
    expect(res.items.map((m) => m.modelId).sort()).toEqual(expected.map((m) => m.modelId).sort());
    const costs = res.items.map((m) => m.typicalCostRub);
    expect(costs).toEqual([...costs].sort((a, b) => a - b));
  });
});

describe("pages are kept per catalog version", () => {
  test("a repeated query is answered from the kept page until a write moves the version", async () => {
    const db = await getDb();
    const query = parse({ search: "prism", tag: "realism", sort: "price_asc", limit: "5" });
    const first = await listModels(db, query);
    expect(await listModels(db, query)).toBe(first);

    // Any write to what a list shows or sorts by, however it is made: here a price, straight in SQL.
    const cheapest = first.items[0]!;
    await db
      .update(models)
      .set({ priceRub: "0.00000001", discountPercent: "0", popularity: 10 })
      .where(eq(models.modelId, cheapest.modelId));
    const repriced = await listModels(db, query);
    expect(repriced).not.toBe(first);
    expect(repriced.items[0]).toMatchObject({ modelId: cheapest.modelId, priceRub: 0.00000001 });

    // Popularity breaks price ties (the same price and unit), so its flush moves the version too.
    const [tied] = synthetic.filter(
      (m) =>
        m.modelId !== cheapest.modelId &&
        m.priceUnit === cheapest.priceUnit &&
        m.modelLab !== null &&
        m.tags.includes("realism") &&
        m.displayName.startsWith("Prism"),
    );
    await db.update(models).set({ priceRub: "0.00000001", discountPercent: "0", popularity: 0 }).where(eq(models.modelId, tied!.modelId));
    expect((await listModels(db, query)).items.slice(0, 2).map((m) => m.modelId)).toEqual([cheapest.modelId, tied!.modelId]);
    await db
      .update(models)
      .set({ popularity: sql`${models.popularity} + 1000000` })
      .where(eq(models.modelId, tied!.modelId));
    expect((await listModels(db, query)).items.slice(0, 2).map((m) => m.modelId)).toEqual([tied!.modelId, cheapest.modelId]);
  });

  test("an edit of the Russian description alone moves the version: a card reads it", async () => {
    const db = await getDb();
    const query = parse({ search: "prism", limit: "1" });
    const first = await listModels(db, query);
    const shown = first.items[0]!;
    await db
      .update(models)
      .set({ schemaRu: { input: {}, description: "Новое описание." } })
      .where(eq(models.modelId, shown.modelId));
    const edited = await listModels(db, query);
    expect(edited).not.toBe(first);
    expect(edited.items[0]).toMatchObject({ modelId: shown.modelId, descriptionRu: "Новое описание." });
  });
});
