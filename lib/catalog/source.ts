import type { ModelSchema, RussianOverlay } from "@/db/schema/models";
import type { CatalogEntry } from "@/lib/catalog/seed/entries";
import { localCatalogSource } from "./local-source";

export type { CatalogEntry };

export type FetchedSchema = { schema: ModelSchema; schemaRu: RussianOverlay | null };

/**
 * Where the catalog comes from: the provider's model list with prices, and one model's
 * input/output schema. Used by the lazy schema fetch (schemaFetchedAt null) and the admin sync
 * endpoints. Schemas must be self-contained JSON Schema (local `$ref`s only). The local
 * implementation serves the seed catalog; the generation issue adds one backed by fal's
 * platform API (`GET /v1/models?expand=openapi-3.0`, `/v1/models/pricing`).
 */
export interface CatalogSource {
  readonly name: string;
  listModels(): Promise<CatalogEntry[]>;
  /** The schema of the provider endpoint `alias`; null when the provider does not know it. */
  fetchSchema(alias: string): Promise<FetchedSchema | null>;
}

const globalForSource = globalThis as unknown as { __gwCatalogSource?: CatalogSource };

export function catalogSource(): CatalogSource {
  return globalForSource.__gwCatalogSource ?? localCatalogSource;
}

/** Installs another source (the fal-backed one at start-up, or a failing one in tests). */
export function setCatalogSource(source: CatalogSource | undefined): void {
  globalForSource.__gwCatalogSource = source;
}
