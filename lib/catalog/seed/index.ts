import { addSeeder } from "@/db/seed";
import type { Executor } from "@/db/client";
import { modelRoutes, models, modelTombstones } from "@/db/schema";
import { seedEntries } from "./entries";
import { seedRoutes } from "./routes";

/**
 * Seeds the catalog at every start: inserts the seed models that are missing, and nothing else.
 * A row that exists is never touched, so what an admin changed (price, discount, visibility,
 * names) survives restarts, and a schema synced from the provider is not replaced by the seed's
 * stand-in. Models an admin deleted (model_tombstones) are not brought back. Seeded rows start
 * with schemaFetchedAt null: the first read refreshes the schema from the catalog source. A model
 * inserted here gets its seed routes (./routes.ts) with it; an existing model's routes are the
 * admin's, never touched.
 */
export async function seedCatalog(db: Executor): Promise<void> {
  const removed = new Set((await db.select({ id: modelTombstones.modelId }).from(modelTombstones)).map((r) => r.id));
  const rows = seedEntries()
    .filter((e) => !removed.has(e.modelId))
    .map((e) => ({ ...e, schemaFetchedAt: null }));
  if (rows.length === 0) return;
  const inserted = await db.insert(models).values(rows).onConflictDoNothing({ target: models.modelId }).returning({ id: models.modelId });
  const routes = inserted.flatMap(({ id }) => (seedRoutes[id] ?? []).map((r, position) => ({ ...r, modelId: id, position })));
  if (routes.length) await db.insert(modelRoutes).values(routes).onConflictDoNothing();
}

/** The catalog's seed runs whenever a database is opened (db/seed); call before the first open. */
export function installCatalogSeed(): void {
  addSeeder("catalog", seedCatalog);
}
