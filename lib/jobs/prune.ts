import { and, inArray, lt, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { jobEvents, jobRuns } from "@/db/schema";

/** Inngest dedupes event ids and idempotency keys for 24 h; history is never pruned sooner. */
export const DEDUPE_WINDOW_MS = 24 * 3_600_000;
const BATCH = 1000;

/**
 * Deletes the embedded executor's finished runs and its events older than the retention window
 * (at least the 24 h dedupe window), in batches so no statement holds locks for long. Unfinished
 * runs are never touched, however old.
 */
export async function pruneJobHistory(db: Db, { asOf, retentionMs }: { asOf: number; retentionMs: number }) {
  const cutoff = new Date(asOf - Math.max(retentionMs, DEDUPE_WINDOW_MS));
  let runs = 0;
  for (;;) {
    const batch = db
      .select({ id: jobRuns.id })
      .from(jobRuns)
      .where(and(lt(jobRuns.finishedAt, cutoff), sql`${jobRuns.status} in ('completed', 'failed', 'cancelled')`))
      .limit(BATCH);
    const deleted = await db.delete(jobRuns).where(inArray(jobRuns.id, batch)).returning({ id: jobRuns.id });
    runs += deleted.length;
    if (deleted.length < BATCH) break;
  }
  let events = 0;
  for (;;) {
    const batch = db.select({ id: jobEvents.id }).from(jobEvents).where(lt(jobEvents.receivedAt, cutoff)).limit(BATCH);
    const deleted = await db.delete(jobEvents).where(inArray(jobEvents.id, batch)).returning({ id: jobEvents.id });
    events += deleted.length;
    if (deleted.length < BATCH) break;
  }
  return { runs, events, cutoff: cutoff.toISOString() };
}
