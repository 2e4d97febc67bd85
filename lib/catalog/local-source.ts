import { seedEntries } from "@/lib/catalog/seed/entries";
import type { CatalogSource } from "./source";

/** The seed catalog as a provider: the embedded default, and what tests run against. */
export const localCatalogSource: CatalogSource = {
  name: "local",
  async listModels() {
    return seedEntries();
  },
  async fetchSchema(alias) {
    const entry = seedEntries().find((e) => e.alias === alias || e.modelId === alias);
    return entry ? { schema: entry.schema, schemaRu: entry.schemaRu } : null;
  },
};
