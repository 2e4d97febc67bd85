import { eq } from "drizzle-orm";
import { afterEach, describe, expect, test } from "vitest";
import { getDb } from "@/db/client";
import { models } from "@/db/schema";
import { seedEntries } from "@/lib/catalog/seed/entries";
import { estimateResponse, modelCard } from "@/lib/http/contracts/models";
import { setCatalogSource } from "@/lib/catalog/source";
import { createActor } from "@/test/factories";
import { call } from "@/test/http";
import { GET, POST } from "./route";

const segments = (modelId: string) => ({ path: modelId.split("/") });
const card = (modelId: string) => call(GET, `/models/${modelId}`, { params: segments(modelId) });
const estimate = async (modelId: string, body: unknown, key?: string) =>
  call(POST, `/models/${modelId}/estimate`, { params: segments(`${modelId}/estimate`), body, key: key ?? (await createActor()).key });

const unknownModel = (modelId: string) => ({ success: false, error: "unknown_model", message: `Unknown model: ${modelId}` });

afterEach(() => setCatalogSource(undefined));

describe("GET /models/{modelId}", () => {
  test("the full card of a slash-containing id, with schema and Russian overlay", async () => {
    const res = await card("fal-ai/kling-video/v2/master/text-to-video");
    expect(res.status).toBe(200);
    const body = modelCard.parse(res.body);
    expect(body).toMatchObject({
      modelId: "fal-ai/kling-video/v2/master/text-to-video",
      category: "text-to-video",
      priceRub: 25.2,
      priceUnit: "second",
    });
    expect(body.schema!.input).toMatchObject({ type: "object", required: ["prompt"] });
    expect(body.schemaRu!.input).toMatchObject({ properties: { prompt: { title: "Промпт" } } });
    expect(body.schemaRu!.description).toMatch(/^Старший тариф Kling/);
    expect(body.descriptionRu).toBe(body.schemaRu!.description);
    expect(res.headers.get("x-request-id")).toBeTruthy();
  });

  test("a schema never fetched (schemaFetchedAt null) is fetched from the catalog source on first read and stored", async () => {
    const db = await getDb();
    await db.update(models).set({ schema: null, schemaRu: null, schemaFetchedAt: null }).where(eq(models.modelId, "fal-ai/flux/schnell"));
    const res = await card("fal-ai/flux/schnell");
    expect(res.status).toBe(200);
    const expected = seedEntries().find((m) => m.modelId === "fal-ai/flux/schnell")!;
    expect(res.body.schema).toEqual(expected.schema);
    expect(res.body.schemaFetchedAt).toEqual(expect.any(String));
    const [row] = await db.select().from(models).where(eq(models.modelId, "fal-ai/flux/schnell"));
    expect(row!.schema).toEqual(expected.schema);
    expect(row!.schemaFetchedAt!.toISOString()).toBe(res.body.schemaFetchedAt);
  });

  test("when the source fails, the stored schema is served and the fetch is retried on a later read", async () => {
    setCatalogSource({ name: "broken", listModels: async () => [], fetchSchema: async () => Promise.reject(new Error("provider down")) });
    const db = await getDb();
    await db.update(models).set({ schemaFetchedAt: null }).where(eq(models.modelId, "fal-ai/recraft/v3/text-to-image"));
    const res = await card("fal-ai/recraft/v3/text-to-image");
    expect(res.status).toBe(200);
    expect(res.body.schema.input.required).toEqual(["prompt"]);
    expect(res.body.schemaFetchedAt).toBeNull();
    setCatalogSource(undefined);
    expect((await card("fal-ai/recraft/v3/text-to-image")).body.schemaFetchedAt).toEqual(expect.any(String));
  });

  test("a hidden model is 404 unknown_model, exactly like a missing one", async () => {
    const hidden = await card("fal-ai/flux-pro/v1");
    const missing = await card("fal-ai/no-such-model");
    expect(hidden.status).toBe(404);
    expect(hidden.body).toEqual(unknownModel("fal-ai/flux-pro/v1"));
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual(unknownModel("fal-ai/no-such-model"));
  });

  test("path segments are used as decoded once by the router, never decoded again", async () => {
    const db = await getDb();
    await db
      .insert(models)
      .values({ modelId: "test/odd%41id", alias: "test/odd%41id", displayName: "Odd", category: "text-to-image", modelLab: "Test" });
    const res = await call(GET, "/models/test/odd%2541id", { params: { path: ["test", "odd%41id"] } });
    expect(res.status).toBe(200);
    expect(res.body.modelId).toBe("test/odd%41id");
    expect((await call(GET, "/models/test/oddAid", { params: { path: ["test", "oddAid"] } })).status).toBe(404);
  });

  test.each([[["fal-ai", "", "dev"]], [["fal-ai", "..", "dev"]], [[]]])("a malformed path %j is 400 invalid_params", async (path) => {
    const res = await call(GET, "/models/x", { params: { path } });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: "invalid_params", issues: [{ path: ["modelId"] }] });
  });
});

describe("POST /models/{modelId}/estimate", () => {
  describe("success", () => {
    test.each([
      // [model, input, quantity, unit price after discount, cost ₽, credits]
      ["fal-ai/flux/dev", { prompt: "a cat", num_images: 2 }, 2.097152, 2.25, 4.7186, 47_186, "megapixel"],
      ["fal-ai/flux/dev", { prompt: "a cat", image_size: { width: 2048, height: 1024 } }, 2.097152, 2.25, 4.7186, 47_186, "megapixel"],
      ["fal-ai/flux/dev", { prompt: "a cat", image_size: "landscape_16_9" }, 0.589824, 2.25, 1.3272, 13_272, "megapixel"],
      ["fal-ai/esrgan", { image_url: "https://example.com/a.png" }, 4.194304, 0.00225, 0.0095, 95, "megapixel"],
      ["fal-ai/ideogram/v2", { prompt: "a poster" }, 1, 6.12, 6.12, 61_200, "image"],
      ["fal-ai/fast-lcm-diffusion", { prompt: "a cat", num_images: 3 }, 3, 0.00035, 0.0011, 11, "image"],
      ["fal-ai/kling-video/v2/master/text-to-video", { prompt: "waves" }, 5, 25.2, 126, 1_260_000, "second"],
      ["fal-ai/kling-video/v2/master/text-to-video", { prompt: "waves", duration: "10" }, 10, 25.2, 252, 2_520_000, "second"],
      ["fal-ai/veo3", { prompt: "a storm" }, 8, 57.375, 459, 4_590_000, "second"],
      ["fal-ai/ltx-video", { prompt: "a storm" }, 1, 1.8, 1.8, 18_000, "request"],
      ["fal-ai/elevenlabs/tts/multilingual-v2", { text: "ы".repeat(2500) }, 3, 8.1, 24.3, 243_000, "1k_chars"],
      ["fal-ai/bge-m3", { input: ["a".repeat(1000), "b".repeat(500)] }, 2, 0.00035, 0.0007, 7, "1k_chars"],
      ["fal-ai/qwen3-embedding", { input: "hello" }, 1, 0.0009, 0.0009, 9, "1k_chars"],
      ["fal-ai/dreamshaper", { prompt: "a dragon" }, 1, 2, 2, 20_000, "request"],
    ] as const)("%s %j → %s units × %s ₽ = %s ₽", async (modelId, input, quantity, unitPrice, costRub, credits, unit) => {
      const res = await estimate(modelId, input);
      expect(res.status).toBe(200);
      expect(estimateResponse.parse(res.body)).toEqual({
        modelId,
        modelAlias: modelId,
        estimatedCostRub: costRub,
        estimatedCostCredits: credits,
        estimatedPriceRub: unitPrice,
        priceUnit: unit,
        quantity,
        currency: "RUB",
      });
    });

    test("a dashboard session may estimate too", async () => {
      const actor = await createActor();
      const res = await call(POST, "/models/fal-ai/flux/dev/estimate", {
        params: segments("fal-ai/flux/dev/estimate"),
        body: { prompt: "x" },
        session: actor.session,
      });
      expect(res.status).toBe(200);
    });
  });

  describe("validation", () => {
    test.each([
      ["a missing required field", { num_images: 1 }, [["prompt"]]],
      ["an empty prompt", { prompt: "" }, [["prompt"]]],
      ["num_images above its maximum", { prompt: "x", num_images: 7 }, [["num_images"]]],
      ["a fractional num_images", { prompt: "x", num_images: 1.5 }, [["num_images"]]],
      ["an unknown image_size preset", { prompt: "x", image_size: "huge" }, [["image_size"]]],
      [
        "a custom size missing its height and too narrow",
        { prompt: "x", image_size: { width: 10 } },
        [
          ["image_size", "width"],
          ["image_size", "height"],
        ],
      ],
      ["a wrong type", { prompt: 42 }, [["prompt"]]],
    ])("%s → 400 invalid_body with issues at the field", async (_, body, paths) => {
      const res = await estimate("fal-ai/flux/dev", body);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        success: false,
        error: "invalid_body",
        message: expect.any(String),
        issues: paths.map((path) => ({ path, message: expect.any(String) })),
      });
    });

    test("a missing required field reads 'Required'", async () => {
      const res = await estimate("fal-ai/flux/dev", { num_images: 2 });
      expect(res.body).toMatchObject({ message: "prompt: Required", issues: [{ path: ["prompt"], message: "Required" }] });
    });

    test("an unknown image_size names the accepted shapes", async () => {
      const res = await estimate("fal-ai/flux/dev", { prompt: "x", image_size: "huge" });
      expect(res.body.issues[0].message).toContain("square_hd");
    });

    test.each([
      ["a JSON array", "[1,2]", "invalid_body"],
      ["malformed JSON", "{", "invalid_json"],
    ])("%s → 400 %s", async (_, raw, code) => {
      const actor = await createActor();
      const res = await call(POST, "/models/fal-ai/flux/dev/estimate", {
        params: segments("fal-ai/flux/dev/estimate"),
        body: raw,
        headers: { "content-type": "application/json" },
        key: actor.key,
      });
      expect(res.status).toBe(400);
      expect(res.body.error).toBe(code);
    });

    test("a hidden or unknown model is 404 unknown_model", async () => {
      expect((await estimate("fal-ai/flux-pro/v1", { prompt: "x" })).body).toEqual(unknownModel("fal-ai/flux-pro/v1"));
      expect((await estimate("fal-ai/nope", { prompt: "x" })).body).toEqual(unknownModel("fal-ai/nope"));
    });

    test("POST on a model path without /estimate is 405", async () => {
      const actor = await createActor();
      const res = await call(POST, "/models/fal-ai/flux/dev", {
        params: segments("fal-ai/flux/dev"),
        body: { prompt: "x" },
        key: actor.key,
      });
      expect(res.status).toBe(405);
      expect(res.headers.get("allow")).toBe("GET");
    });
  });

  describe("auth", () => {
    test("no key → 401; a banned user → 403", async () => {
      const noKey = await call(POST, "/models/fal-ai/flux/dev/estimate", {
        params: segments("fal-ai/flux/dev/estimate"),
        body: { prompt: "x" },
      });
      expect(noKey.status).toBe(401);
      expect(noKey.body).toMatchObject({ error: "unauthorized" });
      const banned = await createActor({ banned: true });
      expect((await estimate("fal-ai/flux/dev", { prompt: "x" }, banned.key)).status).toBe(403);
    });
  });
});
