import { and, eq, inArray, sql } from "drizzle-orm";
import type { Executor } from "@/db/client";
import { generationRequests, jobRuns } from "@/db/schema";

/** The `run-generation` function's composite id under the app id (inngest/client.ts). */
const RUN_FUNCTION_ID = "generation-gateway-run-generation";

/**
 * A job whose provider call failed and is being retried: which retry this is, of how many, when
 * the next one is due, and which call failed — the first (`submit`: the provider did not take the
 * job) or a later one (`poll`: it did not answer about it).
 */
export type RetryState = { attempt: number; maxAttempts: number; nextAt: string | null; failing: "submit" | "poll" };

/**
 * Retry states of the caller's unfinished jobs among `generationIds`, read from the embedded job
 * executor's run (its current step's attempt counter; under an Inngest server the table is empty
 * and nothing is reported). The owner is in the WHERE: another user's job is never read.
 */
export async function getRetryStates(db: Executor, userId: string, generationIds: string[]): Promise<Map<string, RetryState>> {
  if (generationIds.length === 0) return new Map();
  const rows = await db
    .select({
      id: generationRequests.id,
      attempt: jobRuns.attempt,
      maxAttempts: jobRuns.maxAttempts,
      nextAt: jobRuns.nextAt,
      steps: sql<number>`jsonb_array_length(${jobRuns.stack})`.mapWith(Number),
    })
    .from(generationRequests)
    .innerJoin(jobRuns, and(eq(jobRuns.eventId, sql`'generation:' || ${generationRequests.id}`), eq(jobRuns.functionId, RUN_FUNCTION_ID)))
    .where(
      and(
        eq(generationRequests.userId, userId),
        inArray(generationRequests.id, generationIds),
        inArray(generationRequests.status, ["queued", "in_progress"]),
        sql`${jobRuns.attempt} > 0`,
        inArray(jobRuns.status, ["queued", "running"]),
      ),
    );
  return new Map(
    rows.map((r) => [r.id, { attempt: r.attempt, maxAttempts: r.maxAttempts, nextAt: r.nextAt?.toISOString() ?? null, failing: r.steps === 0 ? "submit" : "poll" }]),
  );
}
