import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { getDb, rawRows, type Db } from "@/db/client";
import { gatewayInstances } from "@/db/schema";
import { log } from "@/lib/core/logger";
import { processWide } from "@/lib/core/process-wide";
import { dispatchGeneration } from "./dispatch";

/**
 * Who runs a sync job. A sync request runs its job inline, in the process that took it; when that
 * process dies (SIGKILL, a crash, the machine) the request dies with it, and the job would hold its
 * reserve until the re-drive sweep's long grace (the sync wait plus a minute). So each process that
 * runs sync jobs beats in `gateway_instances` every HEARTBEAT_MS, each sync job names its process
 * (`runner`), and every beat also looks for processes that stopped beating for STALE_MS: the one
 * beat that deletes a dead process's row hands that process's unfinished sync jobs to the queue
 * function, which resumes the stored provider request (never a second submit when the run had
 * recorded it) and ends the job. A repeat with the job's Idempotency-Key, on any instance, waits for
 * that ending and answers it. The re-drive cron catches a hand-over lost between the two.
 */
export const HEARTBEAT_MS = 10_000;
export const STALE_MS = 30_000;

type Runner = { id: string; timer: ReturnType<typeof setInterval> | null; registered: Promise<void> | null };

const runner = processWide<Runner>("generation.runner", () => ({ id: randomUUID(), timer: null, registered: null }));

/**
 * This process's runner id, beating from its first use on (a process that never runs a sync job
 * never beats). The first call waits for the row, so a job never names a process that is not there.
 */
export async function thisRunner(): Promise<string> {
  if (!runner.registered) {
    runner.registered = beat(await getDb()).catch((error) => {
      runner.registered = null;
      throw error;
    });
    runner.timer ??= setInterval(() => void tick(), HEARTBEAT_MS);
    runner.timer.unref?.();
  }
  await runner.registered;
  return runner.id;
}

async function tick(): Promise<void> {
  try {
    const db = await getDb();
    await beat(db);
    await takeOverDeadRunners(db);
  } catch (error) {
    log.warn("runner heartbeat failed", { error: String(error) });
  }
}

/** This process is alive (an upsert of its row; a row a peer deleted as dead comes back). */
export async function beat(db: Db, now = new Date()): Promise<void> {
  await db
    .insert(gatewayInstances)
    .values({ id: runner.id, startedAt: now, heartbeatAt: now })
    .onConflictDoUpdate({ target: gatewayInstances.id, set: { heartbeatAt: now } });
}

/**
 * Deletes the rows of processes silent for STALE_MS and hands their unfinished sync jobs to the
 * queue function; returns those jobs' ids. The delete decides which beat does it: exactly one.
 */
export async function takeOverDeadRunners(db: Db, now = Date.now()): Promise<string[]> {
  const cutoff = new Date(now - STALE_MS).toISOString();
  const orphans = await rawRows<{ id: string }>(
    db,
    sql`with dead as (delete from gateway_instances where heartbeat_at < ${cutoff}::timestamptz and id <> ${runner.id} returning id)
        select g.id from generation_requests g join dead on g.runner = dead.id
        where g.runner is not null and g.status in ('queued', 'in_progress')`,
  );
  for (const { id } of orphans) {
    await dispatchGeneration(id).catch((error) =>
      // The re-drive cron hands it over on its next sweep (its runner row is gone).
      log.warn("sync job of a dead instance not handed over", { generationId: id, error }),
    );
  }
  if (orphans.length > 0) log.info("took over the sync jobs of a stopped instance", { jobs: orphans.length });
  return orphans.map((o) => o.id);
}

/** Stops beating (tests; a process going away just stops). */
export function stopBeating(): void {
  if (runner.timer) clearInterval(runner.timer);
  runner.timer = null;
  runner.registered = null;
}
