import { and, eq, gt, like } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { getDb } from "@/db/client";
import { jobEvents, jobRuns } from "@/db/schema";
import { ManualClock } from "@/lib/jobs/clock";
import { startTestExecutor } from "@/lib/jobs/testing";
import { inngest } from "../../lib/jobs/client";
import { jobHistoryPruneRequested } from "../../lib/jobs/events";
import { functions } from ".";

// A test-only function to make history with: one that finishes, one that waits for days.
const noop = inngest.createFunction({ id: "t-noop", triggers: [{ event: "test/noop" }] }, async ({ event }) => event.data.n);
const patient = inngest.createFunction({ id: "t-patient", triggers: [{ event: "test/patient" }] }, async ({ step }) =>
  step.waitForEvent("never", { event: "test/never", timeout: "7d" }),
);

const PRUNE = "generation-gateway-prune-job-history";
// 10:30 UTC: the hourly cron (minute 17) next fires at 11:17.
const clock = new ManualClock(Date.parse("2030-01-01T10:30:00Z"));
let jobs: Awaited<ReturnType<typeof startTestExecutor>>;

beforeAll(async () => {
  jobs = await startTestExecutor({ functions: [...functions, noop, patient], clock });
});
afterAll(() => jobs.uninstall());

async function runs(functionId: string) {
  const db = await getDb();
  return db.select().from(jobRuns).where(eq(jobRuns.functionId, functionId)).orderBy(jobRuns.createdAt);
}

describe("prune-job-history", () => {
  test("hourly, it drops finished runs and events past 24 h, keeping the dedupe window and unfinished runs", async () => {
    await inngest.send({ id: "old-order", name: "test/noop", data: { n: 1 } });
    await inngest.send({ name: "test/patient", data: {} });
    await jobs.drain();
    expect(await runs(PRUNE)).toHaveLength(0);

    // 11:17 and every hour after: each cron tick prunes as of its scheduled time.
    await jobs.advance("47m");
    const [first] = await runs(PRUNE);
    expect(first).toMatchObject({
      status: "completed",
      output: { runs: 0, events: 0 },
      event: { name: "inngest/scheduled.timer", ts: Date.parse("2030-01-01T11:17:00Z") },
    });

    // Within the window the same event id is still a duplicate.
    await jobs.advance("22h");
    await inngest.send({ id: "old-order", name: "test/noop", data: { n: 2 } });
    await jobs.drain();
    expect((await runs("generation-gateway-t-noop")).map((r) => r.output)).toEqual([1]);

    // Past 24 h the finished run and its event go; the waiting run stays.
    await jobs.advance("2h");
    const last = (await runs(PRUNE)).at(-1)!;
    expect(last).toMatchObject({ status: "completed", output: { runs: 1, cutoff: "2030-01-01T11:17:00.000Z" } });
    expect(await runs("generation-gateway-t-noop")).toEqual([]);
    expect(await runs("generation-gateway-t-patient")).toMatchObject([{ status: "waiting" }]);
    const db = await getDb();
    expect(await db.select().from(jobEvents).where(eq(jobEvents.id, "old-order"))).toEqual([]);

    // …so the id may be used again.
    await inngest.send({ id: "old-order", name: "test/noop", data: { n: 3 } });
    await jobs.drain();
    expect((await runs("generation-gateway-t-noop")).map((r) => r.output)).toEqual([3]);
  });

  test("missed ticks fire once, as the latest of them", async () => {
    const since = new Date(clock.now());
    clock.set(Date.parse("2030-01-02T16:40:00Z"));
    await jobs.drain();
    const db = await getDb();
    const fired = await db
      .select()
      .from(jobEvents)
      .where(and(like(jobEvents.id, `cron:${PRUNE}:%`), gt(jobEvents.receivedAt, since)));
    expect(fired.map((e) => e.payload.ts)).toEqual([Date.parse("2030-01-02T16:17:00Z")]);
  });

  test("it can be asked for on demand, as of a given instant", async () => {
    const { ids } = await inngest.send(jobHistoryPruneRequested.create({ asOf: clock.now() + 30 * 86_400_000 }));
    await jobs.drain();
    const db = await getDb();
    const [run] = await db.select().from(jobRuns).where(eq(jobRuns.eventId, ids[0]!));
    expect(run).toMatchObject({ functionId: PRUNE, status: "completed" });
    // Everything finished is gone (including the earlier prune runs); the waiting run is kept.
    expect((await runs("generation-gateway-t-patient")).map((r) => r.status)).toEqual(["waiting"]);
  });
});
