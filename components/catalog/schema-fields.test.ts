import { describe, expect, test } from "vitest";
import { seedEntries } from "@/lib/catalog/seed/entries";
import { fieldProblems, fieldsOf, humanizeOption, initialValues, toInput } from "./schema-fields";

const flux = seedEntries().find((m) => m.modelId === "fal-ai/flux/dev")!;

describe("form fields from a model's input schema", () => {
  test("fields follow x-fal-order-properties, with kinds, bounds and required marks", () => {
    const fields = fieldsOf(flux.schema.input);
    expect(fields.map((f) => [f.name, f.kind, f.required])).toEqual([
      ["prompt", "textarea", true],
      ["image_size", "size", false],
      ["num_inference_steps", "integer", false],
      ["guidance_scale", "number", false],
      ["num_images", "integer", false],
      ["seed", "integer", false],
      ["enable_safety_checker", "boolean", false],
    ]);
    expect(fields.find((f) => f.name === "num_images")).toMatchObject({ min: 1, max: 4, title: "Number of images" });
  });

  test("the Russian overlay supplies titles and descriptions", () => {
    const fields = fieldsOf(flux.schema.input, flux.schemaRu!.input);
    expect(fields.find((f) => f.name === "num_images")).toMatchObject({
      title: "Количество изображений",
      description: "Сколько изображений сгенерировать.",
    });
  });

  test("values convert back into a typed model input; empty optional fields are left out", () => {
    const fields = fieldsOf(flux.schema.input);
    const values = { ...initialValues(fields), prompt: "a cat", num_images: "3", seed: "", image_size: { width: "2048", height: "1024" } };
    expect(toInput(fields, values)).toEqual({
      prompt: "a cat",
      image_size: { width: 2048, height: 1024 },
      num_inference_steps: 28,
      guidance_scale: 3.5,
      num_images: 3,
    });
    expect(toInput(fields, { ...values, num_images: "2.5x" }).num_images).toBe("2.5x");
  });

  test("numeric enums keep their type; JSON fields parse", () => {
    const trellis = seedEntries().find((m) => m.modelId === "fal-ai/trellis")!;
    const fields = fieldsOf(trellis.schema.input);
    expect(toInput(fields, { ...initialValues(fields), texture_size: "2048", image_url: "https://example.com/a.png" })).toMatchObject({
      texture_size: 2048,
    });
    const lora = seedEntries().find((m) => m.modelId === "fal-ai/flux-lora")!;
    const loraFields = fieldsOf(lora.schema.input);
    expect(loraFields.find((f) => f.name === "loras")!.kind).toBe("json");
    expect(toInput(loraFields, { ...initialValues(loraFields), loras: '[{"path":"https://x/y.safetensors"}]' }).loras).toEqual([
      { path: "https://x/y.safetensors" },
    ]);
  });

  test("the form checks itself from the schema: a missing required field, numbers that do not parse or leave their bounds", () => {
    const fields = fieldsOf(flux.schema.input);
    const values = initialValues(fields);
    expect(fieldProblems(fields, values)).toEqual({ prompt: { kind: "required" } });
    expect(fieldProblems(fields, { ...values, prompt: "   " })).toEqual({ prompt: { kind: "required" } });
    expect(fieldProblems(fields, { ...values, prompt: "a cat", num_images: "9", seed: "1.5", guidance_scale: "x" })).toEqual({
      num_images: { kind: "max", limit: 4 },
      seed: { kind: "integer" },
      guidance_scale: { kind: "number" },
    });
    expect(fieldProblems(fields, { ...values, prompt: "a cat", num_images: "0" })).toEqual({ num_images: { kind: "min", limit: 1 } });
    // An empty optional field is no problem: it is left out of the input.
    expect(fieldProblems(fields, { ...values, prompt: "a cat", seed: "" })).toEqual({});
  });

  test("enum values read as words; ratios, resolutions and numbers stay as they are", () => {
    expect(humanizeOption("square_hd")).toBe("Square HD");
    expect(humanizeOption("landscape_16_9")).toBe("Landscape 16:9");
    expect(humanizeOption("portrait_4_3")).toBe("Portrait 4:3");
    expect(humanizeOption("3d_animation")).toBe("3D animation");
    expect(humanizeOption("jpeg")).toBe("JPEG");
    expect(humanizeOption("anime")).toBe("Anime");
    for (const kept of ["16:9", "720p", "1024", "Already Nice"]) expect(humanizeOption(kept)).toBe(kept);
  });
});
