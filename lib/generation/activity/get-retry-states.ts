import type { ServiceContext } from "@/lib/auth/context";
import { and, desc, eq, gt, inArray, sql } from "drizzle-orm";
import { generationRequests, jobRuns } from "@/db/schema";

/** The `run-generation` function's composite id under the app id (lib/jobs/client.ts). */
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
export async function getRetryStates(
  { db, principal: { userId } }: ServiceContext,
  generationIds: string[],
): Promise<Map<string, RetryState>> {
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
    rows.map((r) => [
      r.id,
      {
        attempt: r.attempt,
        maxAttempts: r.maxAttempts,
        nextAt: r.nextAt?.toISOString() ?? null,
        failing: r.steps === 0 ? "submit" : "poll",
      },
    ]),
  );
}

const IN_FLIGHT_WINDOW_MS = 24 * 60 * 60 * 1000;

export type InFlightRun = {
  id: string;
  modelId: string;
  status: string;
  createdAt: string;
  queuePosition: number | null;
  retry: RetryState | null;
};

/**
 * The caller's unfinished jobs of the last day, newest first, each with its retry state: the
 * Activity list records a job when it ends, so these are shown above it until then. Served by
 * generation_requests_user_created_idx (the user's last day) and job_runs_event_idx.
 */
export async function listInFlightRuns({ db, principal: { userId } }: ServiceContext, limit = 10): Promise<InFlightRun[]> {
  const rows = await db
    .select({
      id: generationRequests.id,
      modelId: generationRequests.modelId,
      status: generationRequests.status,
      createdAt: generationRequests.createdAt,
      queuePosition: generationRequests.queuePosition,
      attempt: jobRuns.attempt,
      maxAttempts: jobRuns.maxAttempts,
      nextAt: jobRuns.nextAt,
      runStatus: jobRuns.status,
      steps: sql<number | null>`jsonb_array_length(${jobRuns.stack})`,
    })
    .from(generationRequests)
    .leftJoin(jobRuns, and(eq(jobRuns.eventId, sql`'generation:' || ${generationRequests.id}`), eq(jobRuns.functionId, RUN_FUNCTION_ID)))
    .where(
      and(
        eq(generationRequests.userId, userId),
        gt(generationRequests.createdAt, new Date(Date.now() - IN_FLIGHT_WINDOW_MS)),
        inArray(generationRequests.status, ["queued", "in_progress"]),
      ),
    )
    .orderBy(desc(generationRequests.createdAt), desc(generationRequests.id))
    .limit(limit);
  return rows.map((r) => ({
    id: r.id,
    modelId: r.modelId,
    status: r.status,
    createdAt: r.createdAt.toISOString(),
    queuePosition: r.queuePosition,
    retry:
      r.attempt !== null && r.attempt > 0 && (r.runStatus === "queued" || r.runStatus === "running")
        ? {
            attempt: r.attempt,
            maxAttempts: r.maxAttempts!,
            nextAt: r.nextAt?.toISOString() ?? null,
            failing: Number(r.steps) === 0 ? "submit" : "poll",
          }
        : null,
  }));
}
