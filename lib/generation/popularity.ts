import { eq, sql } from "drizzle-orm";
import { getDb } from "@/db/client";
import { models } from "@/db/schema";
import { log } from "@/lib/core/logger";

/**
 * Completed generations per model (the catalog's sort=popular, its cards' runs) and their
 * durations (the cards' typical run time), counted in memory and written every couple of seconds. Bumping the model row inside each job's final transaction would make
 * every generation of a popular model queue for that one row lock; popularity is a ranking hint,
 * not money, so a crash losing two seconds of counts is acceptable.
 */
type Pending = { runs: number; timed: number; ms: number };
const pending = new Map<string, Pending>();
let timer: ReturnType<typeof setTimeout> | null = null;

/** One completed run; `ms` from its request to its result, when known. */
export function bumpPopularity(modelId: string, ms?: number): void {
  const p = pending.get(modelId) ?? { runs: 0, timed: 0, ms: 0 };
  p.runs += 1;
  if (ms !== undefined && Number.isFinite(ms) && ms >= 0) {
    p.timed += 1;
    p.ms += Math.round(ms);
  }
  pending.set(modelId, p);
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
    for (const [modelId, p] of batch) {
      await db
        .update(models)
        .set({
          popularity: sql`${models.popularity} + ${p.runs}`,
          timedRuns: sql`${models.timedRuns} + ${p.timed}`,
          runMsTotal: sql`${models.runMsTotal} + ${p.ms}`,
        })
        .where(eq(models.modelId, modelId));
    }
  } catch (error) {
    log.warn("model popularity update failed", { error });
  }
}
