import { describe, expect, test } from "vitest";
import { seedModels } from "./data";
import { descriptionsRu } from "./descriptions-ru";
import { seedEntries } from "./entries";

describe("the seed models' Russian descriptions", () => {
  test("every seed model has one, in Russian, carried by its Russian overlay", () => {
    for (const entry of seedEntries()) {
      const description = entry.schemaRu?.description;
      expect(description, entry.modelId).toBeTruthy();
      expect(description, entry.modelId).toMatch(/[а-яё]{4}/i);
      expect(description, entry.modelId).not.toBe(entry.description);
    }
  });

  test("none is kept for a model the seed does not have", () => {
    const ids = new Set(seedModels.map((m) => m.modelId));
    expect(Object.keys(descriptionsRu).filter((id) => !ids.has(id))).toEqual([]);
  });
});
