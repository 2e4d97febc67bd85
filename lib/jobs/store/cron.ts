import { and, eq, lte, notInArray, sql } from "drizzle-orm";
import type { Executor as Queryable, Tx } from "@/db/client";
import { jobCron, jobEvents, type JobEvent } from "@/db/schema";
import { nextCronTime, type Registry } from "../registry";
import { createRun } from "./job-events";
import { at, SYSTEM_EVENTS, type IngestResult } from "./shared";

/** Writes the upkeep cron triggers need: one row per (function, schedule), next fire time. */
export async function syncCronSchedules(db: Queryable, registry: Registry, now: number) {
  const wanted = registry.crons();
  if (wanted.length) {
    await db
      .insert(jobCron)
      .values(wanted.map((c) => ({ ...c, nextAt: at(nextCronTime(c.schedule, now)) })))
      .onConflictDoNothing();
  }
  const keep = wanted.map((c) => `${c.functionId}\n${c.schedule}`);
  await db.delete(jobCron).where(keep.length ? notInArray(sql`${jobCron.functionId} || E'\\n' || ${jobCron.schedule}`, keep) : undefined);
}

/** Fires every cron trigger that is due: one run per scheduled time, whichever instance gets there. */
export async function fireDueCrons(tx: Tx, registry: Registry, now: number, out: IngestResult) {
  const due = await tx
    .select()
    .from(jobCron)
    .where(lte(jobCron.nextAt, at(now)))
    .for("update", { skipLocked: true });
  for (const row of due) {
    const fn = registry.get(row.functionId);
    if (!fn || !fn.crons.includes(row.schedule)) {
      await tx.delete(jobCron).where(and(eq(jobCron.functionId, row.functionId), eq(jobCron.schedule, row.schedule)));
      continue;
    }
    // After downtime the missed ticks fire once, as the latest of them.
    let scheduled = row.nextAt.getTime();
    for (let i = 0; i < 100_000; i++) {
      const following = nextCronTime(row.schedule, scheduled);
      if (following > now) break;
      scheduled = following;
    }
    const event: JobEvent = {
      id: `cron:${row.functionId}:${row.schedule}:${new Date(scheduled).toISOString()}`,
      name: SYSTEM_EVENTS.cron,
      data: { cron: row.schedule },
      ts: scheduled,
    };
    const inserted = await tx
      .insert(jobEvents)
      .values({ id: event.id, name: event.name, payload: event, receivedAt: at(now) })
      .onConflictDoNothing()
      .returning({ id: jobEvents.id });
    if (inserted.length) {
      const id = await createRun(tx, fn, event, now);
      if (id) out.created.push(id);
    }
    await tx
      .update(jobCron)
      .set({ nextAt: at(nextCronTime(row.schedule, Math.max(now, scheduled))) })
      .where(and(eq(jobCron.functionId, row.functionId), eq(jobCron.schedule, row.schedule)));
  }
  return out;
}

export async function nextCronAt(db: Queryable): Promise<number | undefined> {
  const [cron] = await db.select({ nextAt: sql<string | Date | null>`min(${jobCron.nextAt})` }).from(jobCron);
  return cron?.nextAt ? new Date(cron.nextAt).getTime() : undefined;
}
