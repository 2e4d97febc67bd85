import { eq, sql } from "drizzle-orm";
import type { Executor } from "@/db/client";
import { models, modelTombstones } from "@/db/schema";
import { DomainError } from "@/lib/core/errors";
import { log } from "@/lib/core/logger";
import { toAdminRecord } from "./admin-record";
import { forgetCachedModels, unknownModel } from "./get";
import { overlayValue, refreshedOverlay } from "./overlay-description";
import { catalogSource, type CatalogSource } from "./source";

async function fromSource<T>(what: string, call: (source: CatalogSource) => Promise<T>): Promise<T> {
  const source = catalogSource();
  try {
    return await call(source);
  } catch (error) {
    log.warn("catalog source failed", { source: source.name, what, error });
    throw new DomainError("provider_error", `The catalog source (${source.name}) failed; retry later`);
  }
}

/** POST /admin/models/sync: refresh one model's schema from the provider (hidden models too). */
export async function syncModel(db: Executor, modelId: string) {
  const [row] = await db.select({ alias: models.alias }).from(models).where(eq(models.modelId, modelId));
  if (!row) throw unknownModel(modelId);
  const fetched = await fromSource(`schema of ${row.alias}`, (s) => s.fetchSchema(row.alias));
  if (!fetched) throw new DomainError("unknown_model", `The provider has no model ${row.alias}`);
  const [updated] = await db
    .update(models)
    .set({ schema: fetched.schema, schemaRu: refreshedOverlay(overlayValue(fetched.schemaRu)), schemaFetchedAt: new Date() })
    .where(eq(models.modelId, modelId))
    .returning();
  forgetCachedModels();
  if (!updated) throw unknownModel(modelId);
  return { model: toAdminRecord(updated) };
}

const countModels = async (db: Executor) => (await db.select({ n: sql<number>`count(*)`.mapWith(Number) }).from(models))[0]!.n;

/**
 * POST /admin/models/sync-catalog: adds the provider's models the catalog lacks (with the
 * provider's prices; skipping ones an admin deleted) and refreshes the schema of every model
 * already here. What the admin owns (prices, discount, names, visibility, descriptions) is left alone.
 */
export async function syncCatalog(db: Executor) {
  const started = performance.now();
  const entries = await fromSource("model list", (s) => s.listModels());
  const before = await countModels(db);
  const removed = new Set((await db.select({ id: modelTombstones.modelId }).from(modelTombstones)).map((r) => r.id));
  const now = new Date();
  let added = 0;
  let updated = 0;
  for (let i = 0; i < entries.length; i += 200) {
    const chunk = entries.slice(i, i + 200).filter((e) => !removed.has(e.modelId));
    if (chunk.length === 0) continue;
    const inserted = await db
      .insert(models)
      .values(chunk.map((e) => ({ ...e, schemaFetchedAt: now })))
      .onConflictDoNothing({ target: models.modelId })
      .returning({ modelId: models.modelId });
    added += inserted.length;
    const fresh = new Set(inserted.map((r) => r.modelId));
    const existing = chunk.filter((e) => !fresh.has(e.modelId));
    if (existing.length === 0) continue;
    // One statement per chunk: the schemas travel as one JSON document.
    const payload = JSON.stringify(existing.map((e) => ({ model_id: e.modelId, schema: e.schema, schema_ru: e.schemaRu })));
    const result = await db
      .update(models)
      .set({ schema: sql`v.schema`, schemaRu: refreshedOverlay(sql`v.schema_ru`), schemaFetchedAt: now })
      .from(sql`jsonb_to_recordset(${payload}::jsonb) as v(model_id text, schema jsonb, schema_ru jsonb)`)
      .where(sql`${models.modelId} = v.model_id`)
      .returning({ modelId: models.modelId });
    updated += result.length;
  }
  forgetCachedModels();
  const after = await countModels(db);
  return { before, after, added, updated, elapsedMs: Math.round(performance.now() - started) };
}
