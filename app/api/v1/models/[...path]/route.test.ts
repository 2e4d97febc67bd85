import { describe, expect, test } from "vitest";
import { seedEntries } from "@/lib/catalog/seed/entries";
import { skillModelSchema } from "@/lib/http/contracts/skill-models";
import { createActor } from "@/test/factories";
import { call } from "@/test/http";
import { GET } from "./route";

const schemaOf = async (modelId: string, query = "", key?: string) =>
  call(GET, `/api/v1/models/${modelId}/schema${query}`, {
    params: { path: [...modelId.split("/"), "schema"] },
    key: key ?? (await createActor()).key,
  });

describe("success", () => {
  test("compact (default): required names and each parameter's type, description, default, enum, bounds", async () => {
    const res = await schemaOf("fal-ai/flux/dev");
    expect(res.status).toBe(200);
    const body = skillModelSchema.parse(res.body);
    expect(body.required).toEqual(["prompt"]);
    expect(body.properties.prompt).toEqual({ type: "string", description: "The prompt to generate from." });
    expect(body.properties.num_images).toEqual({
      type: "integer",
      description: "How many images to generate.",
      default: 1,
      minimum: 1,
      maximum: 4,
    });
    expect(body.properties.image_size).toEqual({
      type: "string|object",
      description: "A preset, or a custom size in pixels.",
      default: "square_hd",
      enum: ["square_hd", "square", "portrait_4_3", "portrait_16_9", "landscape_4_3", "landscape_16_9"],
    });
    expect(body.properties.guidance_scale).toMatchObject({ type: "number", default: 3.5 });
  });

  test("full: the model's JSON Schema; lang=ru: Russian descriptions", async () => {
    const full = await schemaOf("fal-ai/flux/dev", "?format=full");
    const seeded = seedEntries().find((m) => m.modelId === "fal-ai/flux/dev")!.schema.input;
    expect(full.body).toEqual(seeded);
    const ru = await schemaOf("fal-ai/flux/dev", "?lang=ru");
    expect(ru.body.properties.num_images.description).toBe("Сколько изображений сгенерировать.");
  });

  test("enum values are strings even when the schema's are numbers", async () => {
    const res = await schemaOf("fal-ai/trellis");
    expect(res.body.properties.texture_size).toMatchObject({ type: "integer", enum: ["512", "1024", "2048"] });
  });
});

describe("validation", () => {
  test.each(["fal-ai/flux-pro/v1", "fal-ai/no-such-model"])("%s (hidden or unknown) → 404 NOT_FOUND", async (modelId) => {
    const res = await schemaOf(modelId);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: `Unknown model: ${modelId}`, code: "NOT_FOUND", details: { reason: "unknown_model" } });
  });

  test("a model path without /schema is not an endpoint here", async () => {
    const actor = await createActor();
    const res = await call(GET, "/api/v1/models/fal-ai/flux/dev", { params: { path: ["fal-ai", "flux", "dev"] }, key: actor.key });
    expect(res.status).toBe(404);
    expect(res.body.code).toBe("NOT_FOUND");
  });

  test("format=tiny → 400 INVALID_PARAMS", async () => {
    expect((await schemaOf("fal-ai/flux/dev", "?format=tiny")).body).toMatchObject({ code: "INVALID_PARAMS" });
  });
});

describe("auth", () => {
  test("a key is required", async () => {
    const res = await call(GET, "/api/v1/models/fal-ai/flux/dev/schema", { params: { path: ["fal-ai", "flux", "dev", "schema"] } });
    expect(res.status).toBe(401);
  });
});
