import { and, eq, isNull, sql } from "drizzle-orm";
import type { Executor } from "@/db/client";
import { preparedQuery } from "@/db/prepared";
import { models } from "@/db/schema";
import { DomainError } from "@/lib/core/errors";
import { log } from "@/lib/core/logger";
import { processWide } from "@/lib/core/process-wide";
import { toModelCard, type ModelRow } from "./columns";
import { overlayValue, refreshedOverlay } from "./overlay-description";
import { catalogSource } from "./source";

export const unknownModel = (modelId: string) => new DomainError("unknown_model", `Unknown model: ${modelId}`);

const visibleModel = preparedQuery((db) =>
  db
    .select()
    .from(models)
    .where(and(eq(models.modelId, sql.placeholder("modelId")), eq(models.visible, true)))
    .limit(1)
    .prepare("visible_model"),
);

/** A visible model, or 404 unknown_model (a hidden model is exactly as unknown as a missing one). */
export async function getVisibleModelOrThrow(db: Executor, modelId: string): Promise<ModelRow> {
  const [row] = await visibleModel(db).execute({ modelId });
  if (!row) throw unknownModel(modelId);
  return row;
}

/**
 * schemaFetchedAt null means "never fetched from the provider": fetch it now and store it. A
 * provider failure is logged and the stored schema (possibly the seed's stand-in) is served; the
 * next read tries again. Concurrent first reads may both fetch; the second write is a no-op.
 */
export async function ensureSchema(db: Executor, row: ModelRow): Promise<ModelRow> {
  if (row.schemaFetchedAt) return row;
  try {
    const fetched = await catalogSource().fetchSchema(row.alias);
    if (!fetched) return row;
    const [updated] = await db
      .update(models)
      .set({ schema: fetched.schema, schemaRu: refreshedOverlay(overlayValue(fetched.schemaRu)), schemaFetchedAt: new Date() })
      .where(and(eq(models.modelId, row.modelId), isNull(models.schemaFetchedAt)))
      .returning();
    return updated ?? row;
  } catch (error) {
    log.warn("model schema fetch failed", { modelId: row.modelId, source: catalogSource().name, error });
    return row;
  }
}

/** What /run, /queue, /estimate and the skill surface use: a visible model with its schema. */
export async function getModelForUse(db: Executor, modelId: string): Promise<ModelRow> {
  return ensureSchema(db, await getVisibleModelOrThrow(db, modelId));
}

const CACHE_MS = 2_000;
// Process-wide: the admin routes that forget it and /run that reads it are separate server chunks.
const cached = processWide("catalog.model-rows", () => new Map<string, { db: Executor; row: ModelRow; at: number }>());

const modelById = preparedQuery((db) =>
  db
    .select()
    .from(models)
    .where(eq(models.modelId, sql.placeholder("modelId")))
    .limit(1)
    .prepare("model_by_id"),
);

/**
 * A catalog row by modelId, hidden or not (a model hidden after a job was accepted must not strand
 * the job), for the generation path, which reads the same few rows on every request and again when
 * the job ends: a row is kept two seconds per process. This process's admin edits and syncs forget
 * it at once (`forgetCachedModels`); another instance's apply within the two seconds (a hidden
 * model may still run, a new price may still be quoted or settled, for that long).
 */
export async function cachedModelRow(db: Executor, modelId: string): Promise<ModelRow | null> {
  const hit = cached.get(modelId);
  if (hit && hit.db === db && Date.now() - hit.at < CACHE_MS) return hit.row;
  const [row] = await modelById(db).execute({ modelId });
  // Only rows the catalog has: unknown ids from request paths must not grow the map.
  if (row) cached.set(modelId, { db, row, at: Date.now() });
  return row ?? null;
}

/** `getModelForUse` through the cache: a visible model with its schema, or 404 unknown_model. */
export async function getModelForRun(db: Executor, modelId: string): Promise<ModelRow> {
  const row = await cachedModelRow(db, modelId);
  if (!row?.visible) throw unknownModel(modelId);
  if (row.schemaFetchedAt) return row;
  const fetched = await ensureSchema(db, row);
  if (fetched !== row) cached.set(modelId, { db, row: fetched, at: Date.now() });
  return fetched;
}

/** Called after any write to the catalog. */
export function forgetCachedModels(): void {
  cached.clear();
}

export async function getModelCard(db: Executor, modelId: string) {
  return toModelCard(await getModelForUse(db, modelId));
}
