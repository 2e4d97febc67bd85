import { sql } from "drizzle-orm";
import type { Db, Tx } from "@/db/client";
import { activeJobRunStatuses, jobRunOps, jobRuns } from "@/db/schema";

/**
 * The executor's database operations. Every one is a single statement or runs inside the caller's
 * transaction; every time is the executor's clock (`now`, ms). Writes by a run's holder are
 * conditional on its lease, so a holder that lost the run (crash, expiry) writes
 * nothing; step results are merged into `steps` (`||`), never overwritten, so a wait resolved by
 * an event and a step completed by the holder cannot lose each other's result.
 */

export type RunRow = typeof jobRuns.$inferSelect;
/**
 * A claimed run; `fresh` when it never ran before (so it cannot have pending ops); `ops`, its
 * pending ops when the claim read them too.
 */
export type ClaimedRun = RunRow & { fresh: boolean; ops?: OpRow[] };
export type OpRow = typeof jobRunOps.$inferSelect;

export const ACTIVE = [...activeJobRunStatuses];
export const at = (ms: number) => new Date(ms);
export const json = (value: unknown) => sql`${JSON.stringify(value)}::jsonb`;

/** The two system events the executor emits, named as Inngest names them: a failed run (`onFailure` listens) and a cron tick. */
export const SYSTEM_EVENTS = { failed: "inngest/function.failed", cron: "inngest/scheduled.timer" } as const;

/** What an ingest changed, for the executor to act on after commit. */
export type IngestResult = {
  /** Runs created, due now (to kick). */
  created: string[];
  /** Runs created already claimed by the sender's executor (ingestOne's `hold`), to drive at once. */
  held: ClaimedRun[];
  /** The earliest start of runs created for later (an event's `ts` ahead of the wall clock); Infinity if none. */
  later: number;
  /** Runs whose wait an event resolved (to kick). */
  woken: string[];
  /** Runs that reached a final status, for waiters in this process. */
  finished: FinishedRun[];
  /** Blocked runs let through because a concurrency slot freed (due now). */
  promoted: number;
};

/** A run's final outcome, as waiters receive it. */
export type FinishedRun = { runId: string; status: "completed" | "failed" | "cancelled"; output?: unknown; error?: unknown };

export const emptyResult = (): IngestResult => ({ created: [], held: [], later: Infinity, woken: [], finished: [], promoted: 0 });

/** A cancelOn rule's op has this step id prefix (registry.ts); an SDK step id never does. */
export const CANCEL_OP_PREFIX = "cancel:";
export const isCancelOp = (op: { stepId: string }) => op.stepId.startsWith(CANCEL_OP_PREFIX);
/** The due time of a cancel op: it has no timeout (cancelOn `timeout` is refused). */
export const NEVER = new Date("9999-12-31T00:00:00Z");

/** Runs a transaction, retrying the rare deadlock or serialisation failure PostgreSQL reports. */
export async function retryingTransaction<T>(db: Db, work: (tx: Tx) => Promise<T>): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await db.transaction(work);
    } catch (err) {
      const e = err as { code?: string; cause?: { code?: string } };
      const code = e.code ?? e.cause?.code;
      if (attempt < 4 && (code === "40P01" || code === "40001")) continue;
      throw err;
    }
  }
}
