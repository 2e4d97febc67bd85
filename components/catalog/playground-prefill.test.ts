import { describe, expect, test } from "vitest";
import { seedEntries } from "@/lib/catalog/seed/entries";
import { runAgainHref } from "@/components/generation/run-again";
import { prefillFromSearch, valuesFromInput } from "./playground-prefill";
import { fieldsOf, initialValues, toInput } from "./schema-fields";

const flux = seedEntries().find((m) => m.modelId === "fal-ai/flux/dev")!;
const fields = fieldsOf(flux.schema.input);

describe("a run's input back into the playground's form", () => {
  test("values round-trip through toInput: presets, custom sizes, numbers and booleans", () => {
    for (const input of [
      { prompt: "a cat", image_size: "square", num_images: 2, enable_safety_checker: false },
      { prompt: "a dog", image_size: { width: 2048, height: 1024 }, seed: 7, guidance_scale: 4.5 },
    ]) {
      const values = { ...initialValues(fields), ...valuesFromInput(fields, input) };
      expect(toInput(fields, values)).toMatchObject(input);
    }
  });

  test("fields the schema does not have are dropped", () => {
    expect(valuesFromInput(fields, { prompt: "x", unknown_field: 1 })).toEqual({ prompt: "x" });
  });

  test("the Run again link carries the input, which the page's search gives back", () => {
    const input = { prompt: "a paper boat & a pond", image_size: "square" };
    const href = runAgainHref("fal-ai/flux/dev", "queue", input)!;
    expect(href.startsWith("/catalog/fal-ai/flux/dev?input=")).toBe(true);
    expect(prefillFromSearch(href.slice(href.indexOf("?")), fields)).toEqual({ prompt: "a paper boat & a pond", image_size: "square" });
  });

  test("no link for uploads, missing inputs or inputs too long for a URL; no prefill from a malformed one", () => {
    expect(runAgainHref(null, "run", { prompt: "x" })).toBeNull();
    expect(runAgainHref("fal-ai/flux/dev", "upload", { prompt: "x" })).toBeNull();
    expect(runAgainHref("fal-ai/flux/dev", "run", null)).toBeNull();
    expect(runAgainHref("fal-ai/flux/dev", "run", { prompt: "x".repeat(7000) })).toBeNull();
    for (const search of ["", "?input=", "?input=%7Bnot-json", "?input=%5B1%5D", "?input=%7B%22other%22%3A1%7D"]) {
      expect(prefillFromSearch(search, fields)).toBeNull();
    }
  });
});
