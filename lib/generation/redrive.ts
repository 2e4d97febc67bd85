import { and, eq, inArray, isNotNull, lt, or, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { gatewayInstances, generationRequests, jobEvents, webhookDeliveries } from "@/db/schema";
import { env } from "@/lib/core/env";
import { requestCallbackDelivery } from "./callbacks";
import { dispatchGeneration } from "./dispatch";
import { STALE_MS } from "./runners";

const QUEUE_GRACE_MS = 60_000;

/**
 * The safety net for hand-offs lost to a crash: unfinished jobs whose driver is gone (a sync
 * request whose process stopped beating or older than the sync wait, a queued job whose event
 * was never sent) are handed to the
 * queue function, and pending callbacks are queued again. Event ids dedupe, so a job or a
 * callback that is in fact still being handled is not started twice.
 */
export async function redriveGenerations(db: Db, now = Date.now()): Promise<{ jobs: number; callbacks: number }> {
  const syncCutoff = new Date(now - env().RUN_SYNC_TIMEOUT_MS - QUEUE_GRACE_MS);
  const queueCutoff = new Date(now - QUEUE_GRACE_MS);
  const staleCutoff = new Date(now - STALE_MS).toISOString();
  const stale = await db
    .select({ id: generationRequests.id })
    .from(generationRequests)
    .where(
      and(
        inArray(generationRequests.status, ["queued", "in_progress"]),
        or(
          and(eq(generationRequests.mode, "sync"), lt(generationRequests.updatedAt, syncCutoff)),
          // A sync job whose process stopped beating and whose hand-over at that moment was lost (runners.ts).
          and(
            eq(generationRequests.mode, "sync"),
            isNotNull(generationRequests.runner),
            sql`not exists (select 1 from ${gatewayInstances} i where i.id = ${generationRequests.runner} and i.heartbeat_at >= ${staleCutoff}::timestamptz)`,
          ),
          and(eq(generationRequests.mode, "queue"), lt(generationRequests.updatedAt, queueCutoff)),
        ),
        // Embedded executor: a job whose hand-off event is stored has its run, so sending it again
        // is a wasted no-op (docs/engine.md). Under an Inngest server the table stays empty.
        sql`not exists (select 1 from ${jobEvents} e where e.id = 'generation:' || ${generationRequests.id})`,
      ),
    )
    .limit(500);
  for (const { id } of stale) await dispatchGeneration(id);
  const owed = await db
    .select({ id: webhookDeliveries.id })
    .from(webhookDeliveries)
    .where(and(eq(webhookDeliveries.status, "pending"), lt(webhookDeliveries.createdAt, queueCutoff)))
    .limit(500);
  for (const { id } of owed) await requestCallbackDelivery(id);
  return { jobs: stale.length, callbacks: owed.length };
}
