import { eq } from "drizzle-orm";
import type { Executor } from "@/db/client";
import { models } from "@/db/schema";
import type { ModelRow } from "@/lib/catalog/columns";

/**
 * The catalog row a job runs against, by modelId, hidden or not: a model hidden after a job was
 * accepted must not strand the job. Rows are kept a few seconds in memory: the sync path reads
 * the model at every request and prices rarely change (a change applies within the TTL).
 */
const TTL_MS = 5_000;
const cache = new Map<string, { row: ModelRow; at: number }>();

export async function modelForJob(db: Executor, modelId: string): Promise<ModelRow | null> {
  const hit = cache.get(modelId);
  if (hit && Date.now() - hit.at < TTL_MS) return hit.row;
  const [row] = await db.select().from(models).where(eq(models.modelId, modelId)).limit(1);
  if (row) cache.set(modelId, { row, at: Date.now() });
  return row ?? null;
}

/** Remembers a row just read by the request path (getModelForUse), sparing the job a read. */
export function rememberModel(row: ModelRow): void {
  cache.set(row.modelId, { row, at: Date.now() });
}
