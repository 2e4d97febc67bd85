import { eq } from "drizzle-orm";
import { describe, expect, test } from "vitest";
import { getDb } from "@/db/client";
import { models, modelTombstones } from "@/db/schema";
import { seedCatalog } from "@/lib/catalog/seed";
import { seedEntries } from "@/lib/catalog/seed/entries";
import { adminModelsResponse, upsertModelResponse } from "@/lib/http/contracts/admin-models";
import { createActor } from "@/test/factories";
import { call } from "@/test/http";
import { GET as getCard } from "../../models/[...path]/route";
import { POST as postEstimate } from "../../models/[...path]/route";
import { DELETE, GET, POST } from "./route";

const admin = async () => (await createActor({ role: "admin" })).session;
const upsert = async (body: unknown, session?: string) => call(POST, "/admin/models", { body, session: session ?? (await admin()) });
const card = (modelId: string) => call(getCard, `/models/${modelId}`, { params: { path: modelId.split("/") } });
const row = async (modelId: string) => (await (await getDb()).select().from(models).where(eq(models.modelId, modelId)))[0];

describe("GET /admin/models", () => {
  test("lists every model, hidden ones included; visibleOnly and category narrow it", async () => {
    const session = await admin();
    const all = adminModelsResponse.parse((await call(GET, "/admin/models?limit=200", { session })).body);
    expect(all.total).toBe(seedEntries().length);
    expect(all.items.find((m) => m.modelId === "fal-ai/flux-pro/v1")).toMatchObject({ visible: false, alias: "fal-ai/flux-pro/v1" });
    const visible = adminModelsResponse.parse((await call(GET, "/admin/models?limit=200&visibleOnly=true", { session })).body);
    expect(visible.total).toBe(seedEntries().filter((m) => m.visible).length);
    const music = adminModelsResponse.parse((await call(GET, "/admin/models?category=music", { session })).body);
    expect(music.items.map((m) => m.category)).toEqual(["music", "music", "music"]);
    const page = adminModelsResponse.parse((await call(GET, "/admin/models?limit=2&offset=2", { session })).body);
    expect(page).toMatchObject({ total: all.total, limit: 2, offset: 2 });
    expect(page.items.map((m) => m.modelId)).toEqual(all.items.slice(2, 4).map((m) => m.modelId));
  });

  test("limit=0 → 400 invalid_query", async () => {
    const res = await call(GET, "/admin/models?limit=0", { session: await admin() });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe("invalid_query");
  });
});

describe("POST /admin/models", () => {
  test("creates a model (201, created: true); it is public at once, with its schema fetched lazily", async () => {
    const res = await upsert({
      modelId: "acme/painter/v1",
      displayName: "Acme Painter",
      category: "text-to-image",
      description: "A test model.",
      priceRub: "0.5",
      priceUnit: "image",
      modelLab: "Acme",
      tags: ["Realism"],
      descriptionRu: "Тестовая модель.",
    });
    expect(res.status).toBe(201);
    const body = upsertModelResponse.parse(res.body);
    expect(body).toMatchObject({
      created: true,
      model: { modelId: "acme/painter/v1", alias: "acme/painter/v1", visible: true, priceRub: 0.5, creditCost: 1, tags: ["realism"] },
    });
    expect(await row("acme/painter/v1")).toMatchObject({
      priceRub: "0.50000000",
      priceUnit: "image",
      schemaFetchedAt: null,
      schemaRu: { input: {}, description: "Тестовая модель." },
    });
    const publicCard = await card("acme/painter/v1");
    expect(publicCard.status).toBe(200);
    expect(publicCard.body).toMatchObject({ modelId: "acme/painter/v1", schema: null, schemaFetchedAt: null });
  });

  test("updates only the fields given; priceRub is what is charged, originalPriceRub the price before the discount", async () => {
    const res = await upsert({ modelId: "fal-ai/flux/schnell", originalPriceRub: "0.00035", priceUnit: "image", discountPercent: 20 });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      created: false,
      model: {
        displayName: "FLUX.1 [schnell]",
        priceRub: 0.00028,
        priceUnit: "image",
        discountPercent: 20,
        originalPriceRub: 0.00035,
        creditCost: 1,
      },
    });
    expect(await row("fal-ai/flux/schnell")).toMatchObject({
      priceRub: "0.00035000",
      discountPercent: "20.00",
      originalPriceRub: "0.00035000",
    });
    const actor = await createActor();
    const estimate = await call(postEstimate, "/models/fal-ai/flux/schnell/estimate", {
      params: { path: ["fal-ai", "flux", "schnell", "estimate"] },
      body: { prompt: "x", num_images: 4 },
      key: actor.key,
    });
    expect(estimate.body).toMatchObject({ estimatedCostRub: 0.0012, estimatedPriceRub: 0.00028, quantity: 4 }); // 0.00112 → 0.0012
    expect((await card("fal-ai/flux/schnell")).body).toMatchObject({ priceRub: 0.00028, originalPriceRub: 0.00035, discountPercent: 20 });

    // The record's priceRub sent back unchanged keeps the price; a new discount keeps the price before it.
    const again = await upsert({ modelId: "fal-ai/flux/schnell", priceRub: 0.00028, discountPercent: 20 });
    expect(again.body.model).toMatchObject({ priceRub: 0.00028, originalPriceRub: 0.00035 });
    const deeper = await upsert({ modelId: "fal-ai/flux/schnell", discountPercent: 50 });
    expect(deeper.body.model).toMatchObject({ priceRub: 0.000175, originalPriceRub: 0.00035, discountPercent: 50 });
    const cleared = await upsert({ modelId: "fal-ai/flux/schnell", discountPercent: 0 });
    expect(cleared.body.model).toMatchObject({ discountPercent: 0, priceRub: 0.00035, originalPriceRub: null });
    expect(await row("fal-ai/flux/schnell")).toMatchObject({ priceRub: "0.00035000", originalPriceRub: null });
  });

  test("priceRub alone under a discount sets the charge; the price before it is derived exactly", async () => {
    const res = await upsert({ modelId: "fal-ai/flux/schnell", priceRub: "0.0003", priceUnit: "image", discountPercent: 25 });
    expect(res.status).toBe(201);
    expect(res.body.model).toMatchObject({ priceRub: 0.0003, originalPriceRub: 0.0004, discountPercent: 25 });
    expect(await row("fal-ai/flux/schnell")).toMatchObject({
      priceRub: "0.00040000",
      originalPriceRub: "0.00040000",
      discountPercent: "25.00",
    });
  });

  test("hiding a model makes it 404 on the public card; showing it brings it back", async () => {
    await upsert({ modelId: "fal-ai/ltx-video", visible: false });
    expect((await card("fal-ai/ltx-video")).body).toMatchObject({ error: "unknown_model" });
    await upsert({ modelId: "fal-ai/ltx-video", visible: true });
    expect((await card("fal-ai/ltx-video")).status).toBe(200);
  });

  test.each([
    ["a new model without displayName and category", { modelId: "acme/new" }, [["displayName"], ["category"]]],
    ["more than 8 decimals in priceRub", { modelId: "fal-ai/flux/dev", priceRub: "0.000000001" }, [["priceRub"]]],
    ["a price that is not a number", { modelId: "fal-ai/flux/dev", priceRub: "cheap" }, [["priceRub"]]],
    ["a negative price", { modelId: "fal-ai/flux/dev", priceRub: -1 }, [["priceRub"]]],
    ["a discount above 100", { modelId: "fal-ai/flux/dev", discountPercent: 101 }, [["discountPercent"]]],
    [
      "a charged price no 8-decimal list price gives at the discount",
      { modelId: "fal-ai/flux/dev", priceRub: 1, discountPercent: 30 },
      [["priceRub"]],
    ],
    [
      "a charged price with 100 % off and no originalPriceRub",
      { modelId: "fal-ai/flux/dev", priceRub: 0, discountPercent: 100 },
      [["priceRub"]],
    ],
    [
      "priceRub disagreeing with originalPriceRub and the discount",
      { modelId: "fal-ai/flux/dev", priceRub: 3, originalPriceRub: 4, discountPercent: 20 },
      [["priceRub"]],
    ],
    ["more than 8 decimals in originalPriceRub", { modelId: "fal-ai/flux/dev", originalPriceRub: "0.000000001" }, [["originalPriceRub"]]],
    ["an unknown priceUnit", { modelId: "fal-ai/flux/dev", priceUnit: "token" }, [["priceUnit"]]],
    ["a '..' segment in modelId", { modelId: "acme/../x", displayName: "X", category: "music" }, [["modelId"]]],
    ["a modelId with spaces", { modelId: "acme/a b", displayName: "X", category: "music" }, [["modelId"]]],
  ])("%s → 400 invalid_body", async (_, body, paths) => {
    const res = await upsert(body);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      success: false,
      error: "invalid_body",
      message: expect.any(String),
      issues: paths.map((path) => ({ path, message: expect.any(String) })),
    });
  });
});

describe("DELETE /admin/models", () => {
  test("removes a model for good: 404 after, not re-seeded at restart, until an admin creates it again", async () => {
    const session = await admin();
    const res = await call(DELETE, "/admin/models", { method: "DELETE", body: { modelId: "fal-ai/triposr" }, session });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ok: true, modelId: "fal-ai/triposr" });
    expect(await row("fal-ai/triposr")).toBeUndefined();
    const again = await call(DELETE, "/admin/models", { method: "DELETE", body: { modelId: "fal-ai/triposr" }, session });
    expect(again.status).toBe(404);
    expect(again.body).toMatchObject({ error: "unknown_model" });
    await seedCatalog(await getDb());
    expect(await row("fal-ai/triposr")).toBeUndefined();
    await upsert({ modelId: "fal-ai/triposr", displayName: "TripoSR", category: "3d", modelLab: "Stability AI" }, session);
    expect(await (await getDb()).select().from(modelTombstones).where(eq(modelTombstones.modelId, "fal-ai/triposr"))).toEqual([]);
  });
});

describe("seeding", () => {
  test("the seeder never overwrites what an admin changed", async () => {
    await upsert({ modelId: "fal-ai/wizper", priceRub: "9.99", visible: false, displayName: "Renamed" });
    await seedCatalog(await getDb());
    expect(await row("fal-ai/wizper")).toMatchObject({ priceRub: "9.99000000", visible: false, displayName: "Renamed" });
  });
});

describe("auth", () => {
  test("no credentials → 401; a user's session → 403; an admin's API key → 403 (dashboard only)", async () => {
    expect((await call(GET, "/admin/models")).status).toBe(401);
    const user = await createActor();
    expect((await call(GET, "/admin/models", { session: user.session })).body).toMatchObject({ error: "forbidden" });
    const adminActor = await createActor({ role: "admin" });
    expect((await call(GET, "/admin/models", { key: adminActor.key })).body).toMatchObject({ error: "forbidden" });
    expect((await upsert({ modelId: "fal-ai/flux/dev", visible: false }, user.session)).status).toBe(403);
    expect((await row("fal-ai/flux/dev"))!.visible).toBe(true);
  });
});
