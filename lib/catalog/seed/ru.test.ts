import { describe, expect, test } from "vitest";
import type { JsonSchema } from "@/db/schema/models";
import { seedEntries } from "./entries";

describe("the seed models' Russian overlay", () => {
  test("every input field of every seed model has a Russian title, and a Russian description where it has an English one", () => {
    const missing: string[] = [];
    for (const entry of seedEntries()) {
      const fields = (entry.schema.input.properties ?? {}) as Record<string, JsonSchema>;
      const ru = (entry.schemaRu?.input.properties ?? {}) as Record<string, JsonSchema>;
      for (const [name, field] of Object.entries(fields)) {
        if (typeof ru[name]?.title !== "string") missing.push(`${entry.modelId} ${name}: title`);
        if (typeof field.description === "string" && typeof ru[name]?.description !== "string")
          missing.push(`${entry.modelId} ${name}: description`);
      }
    }
    // A field without one shows its English words on a Russian model page.
    expect(missing).toEqual([]);
  });
});
