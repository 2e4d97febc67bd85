import { eq, inArray, sql } from "drizzle-orm";
import type { InngestFunction } from "inngest";
import { getDb } from "@/db/client";
import { jobRuns } from "@/db/schema";
import { isManualClock, ManualClock, type Clock } from "./clock";
import { JobExecutor, type ExecutorOptions } from "./executor";
import { handlerTransport } from "./protocol";
import { inngest } from "./client";
import { installExecutor, notifyFinished } from "./runtime";
import { jobFunctions } from "./functions";
import { serveJobs } from "./serve";
import { ACTIVE, nextDueAt } from "./store";

/**
 * An embedded executor for tests, in manual mode: nothing runs until the test calls `drain()`,
 * `advance(ms)` or `runUntilIdle()`, and time only moves with its ManualClock. It is installed as
 * the process's executor, so `inngest.send()` in the code under test reaches it.
 *
 *   const jobs = await startTestExecutor();              // the app's functions
 *   await call(POST, "/queue/…", { key, body });         // sends an event
 *   await jobs.drain();                                  // runs everything due
 *   await jobs.advance("10m");                           // a retry or wait timeout later
 *
 * Pass `manual: false, clock: systemClock` and call `start()` for production-like auto mode.
 */
export async function startTestExecutor<C extends Clock = ManualClock>(
  options: { functions?: InngestFunction.Any[]; clock?: C } & Partial<Omit<ExecutorOptions, "clock">> = {},
) {
  const { functions = await jobFunctions(), clock = new ManualClock() as Clock as C, ...rest } = options;
  const signingKey = inngest.signingKey;
  if (!signingKey) throw new Error("tests run the embedded client; unset INNGEST_* for them");
  const handler = serveJobs(functions);
  const executor = await JobExecutor.create({
    transport: handlerTransport(handler, signingKey),
    clock,
    manual: true,
    concurrency: 16,
    onFinished: notifyFinished,
    ...rest,
  });
  const uninstall = installExecutor(executor);
  const db = rest.db ?? getDb;
  const manualClock = () => {
    if (!isManualClock(clock)) throw new Error("advance() needs a ManualClock");
    return clock;
  };
  return Object.assign(executor, {
    clock,
    uninstall,
    handler,
    /** Moves the clock forward, then drains. */
    async advance(by: number | string) {
      manualClock().advance(by);
      await executor.drain();
    },
    /**
     * Jumps the clock from one due time to the next (retries, wait timeouts), draining at each,
     * until no run has work due within `withinMs` of the start. Cron triggers are not followed.
     */
    async runUntilIdle({ withinMs = 30 * 86_400_000 }: { withinMs?: number } = {}) {
      const limit = manualClock().now() + withinMs;
      for (;;) {
        await executor.drain();
        const next = await nextDueAt(await db(), { crons: false });
        if (next === undefined || next > limit) return;
        if (next > clock.now()) manualClock().set(next);
      }
    },
    /** The runs an event started. */
    async runsForEvent(eventId: string) {
      return (await db()).select().from(jobRuns).where(eq(jobRuns.eventId, eventId));
    },
    /** How many runs are not finished. */
    async activeRunCount() {
      const [row] = await (
        await db()
      )
        .select({ n: sql<number>`count(*)::int` })
        .from(jobRuns)
        .where(inArray(jobRuns.status, ACTIVE));
      return Number(row?.n ?? 0);
    },
  });
}
