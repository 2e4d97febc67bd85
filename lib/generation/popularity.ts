import { eq, sql } from "drizzle-orm";
import { getDb } from "@/db/client";
import { models } from "@/db/schema";
import { log } from "@/lib/core/logger";

/**
 * Completed generations per model (the catalog's sort=popular), counted in memory and written
 * every couple of seconds. Bumping the model row inside each job's final transaction would make
 * every generation of a popular model queue for that one row lock; popularity is a ranking hint,
 * not money, so a crash losing two seconds of counts is acceptable.
 */
const pending = new Map<string, number>();
let timer: ReturnType<typeof setTimeout> | null = null;

export function bumpPopularity(modelId: string): void {
  pending.set(modelId, (pending.get(modelId) ?? 0) + 1);
  if (!timer) {
    timer = setTimeout(() => void flushPopularity(), 2_000);
    timer.unref?.();
  }
}

export async function flushPopularity(): Promise<void> {
  timer = null;
  const batch = [...pending.entries()];
  pending.clear();
  if (batch.length === 0) return;
  try {
    const db = await getDb();
    for (const [modelId, n] of batch) {
      await db
        .update(models)
        .set({ popularity: sql`${models.popularity} + ${n}` })
        .where(eq(models.modelId, modelId));
    }
  } catch (error) {
    log.warn("model popularity update failed", { error });
  }
}
