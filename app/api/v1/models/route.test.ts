import { describe, expect, test } from "vitest";
import { seedEntries } from "@/lib/catalog/seed/entries";
import { skillModelsResponse } from "@/lib/http/contracts/skill-models";
import { createActor } from "@/test/factories";
import { call } from "@/test/http";
import { GET } from "./route";

const get = async (query = "") => call(GET, `/api/v1/models${query}`, { key: (await createActor()).key });

describe("success", () => {
  test("every visible media model, mapped onto the skill categories and units (full format)", async () => {
    const res = await get();
    expect(res.status).toBe(200);
    const { models } = skillModelsResponse.parse(res.body);
    const expected = seedEntries().filter((m) => m.visible && m.category !== "embedding");
    expect(models.map((m) => m.id).sort()).toEqual(expected.map((m) => m.modelId).sort());
    expect(models.find((m) => m.id === "fal-ai/flux/dev")).toEqual({
      id: "fal-ai/flux/dev",
      name: "FLUX.1 [dev]",
      category: "text-to-image",
      description: expect.any(String),
      priceRub: 2.25,
      priceUnit: "megapixels",
      billingUnit: "megapixel",
      gatewayCategory: "text-to-image",
    });
    const byId = Object.fromEntries(models.map((m) => [m.id, m]));
    expect(byId["fal-ai/kling-video/v2/master/text-to-video"]).toMatchObject({
      category: "text-to-video",
      priceUnit: "seconds",
      priceRub: 25.2,
    });
    expect(byId["fal-ai/ltx-video"]).toMatchObject({ priceUnit: "videos", billingUnit: "request" });
    expect(byId["fal-ai/ideogram/v2"]).toMatchObject({ priceUnit: "images", priceRub: 6.12 }); // 7.2 ₽ − 15 %
    expect(byId["fal-ai/minimax/speech-02-hd"]).toMatchObject({ category: "audio", billingUnit: "1k_chars" });
    expect(byId["fal-ai/minimax/speech-02-hd"]).not.toHaveProperty("priceUnit");
    expect(byId["fal-ai/hunyuan3d/v2"]).toMatchObject({ category: "3d", billingUnit: "request" });
    expect(byId["fal-ai/dreamshaper"]).toMatchObject({ priceRub: 2, priceUnit: "images", billingUnit: "request" });
  });

  test("category=audio folds speech, sound, music and voice cloning together", async () => {
    const { models } = skillModelsResponse.parse((await get("?category=audio")).body);
    const audio = ["text-to-speech", "speech-to-text", "text-to-audio", "music", "voice-cloning"];
    expect(models.map((m) => m.id).sort()).toEqual(
      seedEntries()
        .filter((m) => audio.includes(m.category))
        .map((m) => m.modelId)
        .sort(),
    );
    expect(models.every((m) => m.category === "audio")).toBe(true);
  });

  test("format=compact leaves out descriptions and gateway details", async () => {
    const { models } = skillModelsResponse.parse((await get("?format=compact&category=3d")).body);
    expect(models.length).toBe(4);
    for (const m of models)
      expect(Object.keys(m).sort()).toEqual(["category", "id", "name", "priceRub"].concat(m.priceUnit ? ["priceUnit"] : []).sort());
  });
});

describe("validation", () => {
  test.each(["category=embedding", "format=tiny"])("%s → 400 INVALID_PARAMS in the skill envelope", async (query) => {
    const res = await get(`?${query}`);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      error: expect.any(String),
      code: "INVALID_PARAMS",
      details: { reason: "invalid_query", issues: [expect.any(Object)] },
    });
  });
});

describe("auth", () => {
  test("a key is required", async () => {
    const res = await call(GET, "/api/v1/models");
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ code: "UNAUTHORIZED" });
  });
});
