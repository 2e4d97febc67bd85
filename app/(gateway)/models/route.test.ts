import { describe, expect, test } from "vitest";
import { seedEntries } from "@/lib/catalog/seed/entries";
import { modelListResponse } from "@/lib/http/contracts/models";
import { CATEGORY_ORDER } from "@/lib/catalog/categories";
import { call } from "@/test/http";
import { GET as adminModels } from "../admin/models/route";
import { GET as skillModels } from "../../api/v1/models/route";
import { createActor } from "@/test/factories";
import { fundedActor, pathOf } from "@/test/generation";
import { flushPopularity } from "@/lib/generation/popularity";
import { POST as runModel } from "../run/[...path]/route";
import { GET as getCard, POST as postEstimate } from "./[...path]/route";
import { GET } from "./route";

const seed = seedEntries();
const listed = seed.filter((m) => m.visible && m.modelLab !== null);
const list = async (query = "") => {
  const res = await call(GET, `/models${query}`);
  expect(res.status).toBe(200);
  return modelListResponse.parse(res.body);
};

describe("success", () => {
  test("defaults: visible branded models, most popular first, 50 per page, with X-Request-ID", async () => {
    const res = await call(GET, "/models");
    expect(res.status).toBe(200);
    expect(res.headers.get("x-request-id")).toBeTruthy();
    const body = modelListResponse.parse(res.body);
    expect(body).toMatchObject({ total: listed.length, limit: 50, offset: 0 });
    expect(body.items.length).toBe(Math.min(50, listed.length));
    const expected = [...listed].sort((a, b) => b.popularity - a.popularity || +b.publishedAt - +a.publishedAt).slice(0, 50);
    expect(body.items.map((m) => m.modelId)).toEqual(expected.map((m) => m.modelId));
    expect(body.items.every((m) => m.modelLab !== null)).toBe(true);
  });

  test("list items carry the card's list fields, prices as numbers and absolute thumbnails", async () => {
    const { items } = await list("?search=fal-ai/flux/dev&limit=200");
    const dev = items.find((m) => m.modelId === "fal-ai/flux/dev")!;
    expect(dev).toEqual({
      modelId: "fal-ai/flux/dev",
      displayName: "FLUX.1 [dev]",
      category: "text-to-image",
      description: expect.any(String),
      // The Russian overlay's description, without the overlay's schema.
      descriptionRu: seed.find((m) => m.modelId === "fal-ai/flux/dev")!.schemaRu!.description,
      creditCost: 3,
      priceRub: 2.25,
      priceUnit: "megapixel",
      originalPriceRub: null,
      discountPercent: 0,
      modelLab: "Black Forest Labs",
      modelFamily: "FLUX.1",
      groupLabel: "FLUX",
      tags: ["realism", "text-rendering", "lora-compatible"],
      thumbnailUrl: "http://localhost:3000/examples/fal-ai/flux/dev",
      licenseType: "non-commercial",
      publishedAt: "2024-08-01T00:00:00.000Z",
      createdAt: expect.any(String),
      // A typical run: one square_hd image (1024 × 1024 = 1.048576 MP) at 2.25 ₽/MP, rounded up.
      typicalCostRub: 2.3593,
      // This gateway's own completed runs: none yet (the seed's popularity only ranks the list).
      runs: 0,
      typicalRunSeconds: null,
    });
    expect(dev).not.toHaveProperty("schema");
  });

  test("a completed run counts in the model's runs and its typical run time", async () => {
    const id = "fal-ai/flux/schnell";
    const before = (await list(`?search=${id}`)).items.find((m) => m.modelId === id)!;
    expect(before.typicalRunSeconds).toBeNull();
    const { key } = await fundedActor(10);
    const res = await call(runModel, `/run/${id}`, { params: pathOf(id), body: { prompt: "a red kite" }, key });
    expect(res.status).toBe(200);
    await flushPopularity();
    const after = (await list(`?search=${id}`)).items.find((m) => m.modelId === id)!;
    expect(after.runs).toBe(before.runs + 1);
    expect(after.typicalRunSeconds).toEqual(expect.any(Number));
    expect(after.typicalRunSeconds).toBeGreaterThanOrEqual(0);
  });

  test("category is a CSV with IN semantics", async () => {
    const body = await list("?category=text-to-video,image-to-video&limit=200");
    const expected = listed.filter((m) => m.category === "text-to-video" || m.category === "image-to-video");
    expect(body.total).toBe(expected.length);
    expect(new Set(body.items.map((m) => m.category))).toEqual(new Set(["text-to-video", "image-to-video"]));
  });

  test("lab is a CSV with IN semantics, case-insensitive", async () => {
    const body = await list("?lab=google,BLACK%20FOREST%20LABS&limit=200");
    const expected = listed.filter((m) => m.modelLab === "Google" || m.modelLab === "Black Forest Labs");
    expect(body.items.map((m) => m.modelId).sort()).toEqual(expected.map((m) => m.modelId).sort());
  });

  test("tag is a CSV with AND semantics: a model must carry every listed tag", async () => {
    const one = await list("?tag=realism&limit=200");
    const both = await list("?tag=realism,text-rendering&limit=200");
    const expected = listed.filter((m) => m.tags.includes("realism") && m.tags.includes("text-rendering"));
    expect(both.items.map((m) => m.modelId).sort()).toEqual(expected.map((m) => m.modelId).sort());
    expect(both.total).toBeGreaterThan(0);
    expect(both.total).toBeLessThan(one.total);
    expect(both.items.every((m) => m.tags.includes("realism") && m.tags.includes("text-rendering"))).toBe(true);
  });

  test.each([
    ["a modelId substring, any case", "FLUX/DEV", ["fal-ai/flux/dev", "fal-ai/flux/dev/image-to-image"]],
    ["a displayName substring", "kontext", ["fal-ai/flux-pro/kontext"]],
    ["a description substring", "synthid", ["fal-ai/imagen4/preview"]],
    ["two characters (no trigram)", "3D", ["fal-ai/hunyuan3d/v2", "fal-ai/tripo3d/tripo/v2.5/text-to-3d", "fal-ai/trellis"]],
  ])("search matches %s", async (_, search, expected) => {
    const body = await list(`?search=${encodeURIComponent(search)}&limit=200`);
    const want = listed.filter((m) =>
      [m.modelId, m.displayName, m.description].some((f) => f.toLowerCase().includes(search.toLowerCase())),
    );
    expect(body.items.map((m) => m.modelId).sort()).toEqual(want.map((m) => m.modelId).sort());
    expect(body.items.map((m) => m.modelId)).toEqual(expect.arrayContaining(expected));
  });

  test("search treats % and _ literally, and a 64-character search is accepted", async () => {
    expect((await list("?search=%25")).total).toBe(0);
    expect((await list("?search=flux_dev")).total).toBe(0);
    expect((await list(`?search=${"a".repeat(64)}`)).total).toBe(0);
  });

  test("filters combine: search, tag and category together", async () => {
    const body = await list("?search=flux&tag=realism&category=text-to-image&limit=200");
    const want = listed.filter(
      (m) =>
        m.category === "text-to-image" &&
        m.tags.includes("realism") &&
        [m.modelId, m.displayName, m.description].some((f) => f.toLowerCase().includes("flux")),
    );
    expect(body.items.map((m) => m.modelId).sort()).toEqual(want.map((m) => m.modelId).sort());
  });

  test("sort=newest puts the latest publishedAt first", async () => {
    const { items } = await list("?sort=newest&limit=200");
    const dates = items.map((m) => m.publishedAt);
    expect(dates).toEqual([...dates].sort().reverse());
  });

  test("sort=price_asc: cheapest typical run first, whatever the unit, models without a price last", async () => {
    const { items } = await list("?sort=price_asc&includeCommunity=true&limit=200");
    const priced = items.filter((m) => m.priceRub !== null);
    const costs = priced.map((m) => m.typicalCostRub);
    // Rounded to 0.0001 ₽ for display, so neighbours may tie; the order is by the exact cost.
    for (let i = 1; i < costs.length; i++) expect(costs[i]!).toBeGreaterThanOrEqual(costs[i - 1]!);
    expect(items.slice(priced.length).every((m) => m.priceRub === null)).toBe(true);
    expect(items.at(-1)!.priceRub).toBeNull();
    // Units differ: the cheapest per unit (an embedding, per 1K characters) is not what sorts first by itself.
    expect(new Set(priced.map((m) => m.priceUnit)).size).toBeGreaterThan(2);
    const perSecond = priced.find((m) => m.priceUnit === "second")!;
    expect(perSecond.typicalCostRub).toBeGreaterThan(perSecond.priceRub!);
  });

  test("sort=by_category follows the fixed category order, grouped by groupLabel inside", async () => {
    const { items } = await list("?sort=by_category&limit=200");
    const rank = items.map((m) => CATEGORY_ORDER.indexOf(m.category as (typeof CATEGORY_ORDER)[number]));
    expect(rank).toEqual([...rank].sort((a, b) => a - b));
    expect(items[0]!.category).toBe("text-to-image");
    for (const category of new Set(items.map((m) => m.category))) {
      const groups = items.filter((m) => m.category === category).map((m) => m.groupLabel ?? "");
      expect(groups).toEqual([...groups].sort());
    }
  });

  test("community models (modelLab null) are excluded unless includeCommunity=true", async () => {
    const without = await list("?limit=200");
    const withCommunity = await list("?includeCommunity=true&limit=200");
    const community = seed.filter((m) => m.visible && m.modelLab === null);
    expect(community.length).toBeGreaterThan(0);
    expect(without.items.some((m) => m.modelLab === null)).toBe(false);
    expect(withCommunity.total).toBe(without.total + community.length);
    expect(withCommunity.items.map((m) => m.modelId)).toEqual(expect.arrayContaining(community.map((m) => m.modelId)));
  });

  test("hidden models are never listed", async () => {
    const { items } = await list("?includeCommunity=true&limit=200&search=flux");
    expect(items.map((m) => m.modelId)).not.toContain("fal-ai/flux-pro/v1");
  });

  test("paging: pages do not overlap, totals stay the same, a page past the end is empty", async () => {
    const all = await list("?limit=10");
    const first = await list("?limit=5");
    const second = await list("?limit=5&offset=5");
    expect(first.total).toBe(all.total);
    expect(second.total).toBe(all.total);
    expect([...first.items, ...second.items].map((m) => m.modelId)).toEqual(all.items.map((m) => m.modelId));
    const past = await list(`?limit=5&offset=${all.total + 10}`);
    expect(past).toEqual({ items: [], total: all.total, limit: 5, offset: all.total + 10 });
    expect((await list("?category=no-such-category")).total).toBe(0);
  });
});

describe("prices agree across surfaces", () => {
  // Seeded at 3.6 ₽ per image, 20 % off: 2.88 ₽ is charged per image.
  const imagen = "fal-ai/imagen4/preview";

  test("a discounted model's priceRub is the unit price charged, originalPriceRub the price before the discount", async () => {
    const actor = await createActor({ role: "admin" });
    const path = imagen.split("/");
    const estimate = await call(postEstimate, `/models/${imagen}/estimate`, {
      params: { path: [...path, "estimate"] },
      body: { prompt: "x", num_images: 2 },
      key: actor.key,
    });
    expect(estimate.body).toMatchObject({ estimatedPriceRub: 2.88, estimatedCostRub: 5.76, quantity: 2, priceUnit: "image" });

    const listed = (await list(`?search=${imagen}`)).items.find((m) => m.modelId === imagen);
    const card = await call(getCard, `/models/${imagen}`, { params: { path } });
    const skill = await call(skillModels, "/api/v1/models?format=compact", { key: actor.key });
    const admin = await call(adminModels, "/admin/models?search=imagen4&limit=200", { session: actor.session });
    const prices = { priceRub: 2.88, originalPriceRub: 3.6, discountPercent: 20 };
    expect(listed).toMatchObject(prices);
    expect(card.body).toMatchObject(prices);
    expect(admin.body.items.find((m: { modelId: string }) => m.modelId === imagen)).toMatchObject(prices);
    expect(skill.body.models.find((m: { id: string }) => m.id === imagen)).toMatchObject({ priceRub: 2.88, priceUnit: "images" });
  });

  test("without a discount priceRub is the price and originalPriceRub is null", async () => {
    const dev = (await list("?search=fal-ai/flux/dev")).items.find((m) => m.modelId === "fal-ai/flux/dev");
    expect(dev).toMatchObject({ priceRub: 2.25, originalPriceRub: null, discountPercent: 0 });
  });

  test("every discounted text-to-image and text-to-video model's priceRub is what /estimate quotes per unit", async () => {
    const actor = await createActor();
    const { items } = await list("?includeCommunity=true&limit=200&category=text-to-image,text-to-video");
    const priced = items.filter((m) => m.priceRub !== null && m.discountPercent > 0);
    expect(priced.length).toBeGreaterThan(1);
    for (const m of priced) {
      const res = await call(postEstimate, `/models/${m.modelId}/estimate`, {
        params: { path: [...m.modelId.split("/"), "estimate"] },
        body: { prompt: "x" },
        key: actor.key,
      });
      expect([m.modelId, res.body.estimatedPriceRub]).toEqual([m.modelId, m.priceRub]);
    }
  });
});

describe("validation", () => {
  test.each([
    ["sort=cheapest", ["sort"]],
    ["limit=0", ["limit"]],
    ["limit=201", ["limit"]],
    ["limit=abc", ["limit"]],
    ["limit=1.5", ["limit"]],
    ["offset=-1", ["offset"]],
    ["includeCommunity=maybe", ["includeCommunity"]],
    [`search=${"a".repeat(65)}`, ["search"]],
    ["category=Not%20A%20Slug!", ["category", "0"]],
    [`tag=${Array.from({ length: 21 }, (_, i) => `t${i}`).join(",")}`, ["tag"]],
  ])("%s → 400 invalid_query pointing at the parameter", async (query, path) => {
    const res = await call(GET, `/models?${query}`);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      success: false,
      error: "invalid_query",
      message: expect.any(String),
      issues: [{ path, message: expect.any(String) }],
    });
  });
});

describe("auth", () => {
  test("no credentials are needed", async () => {
    expect((await call(GET, "/models?limit=1")).status).toBe(200);
  });
});
