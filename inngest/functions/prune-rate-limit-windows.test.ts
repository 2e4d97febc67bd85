import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { getDb } from "@/db/client";
import { jobRuns, rateLimitWindows } from "@/db/schema";
import { ManualClock } from "@/lib/jobs/clock";
import { startTestExecutor } from "@/lib/jobs/testing";
import { functions } from ".";

const PRUNE = "generation-gateway-prune-rate-limit-windows";
const HOUR = 3_600_000;
// 10:30 UTC: the hourly cron (minute 41) next fires at 10:41.
const clock = new ManualClock(Date.parse("2030-01-01T10:30:00Z"));
let jobs: Awaited<ReturnType<typeof startTestExecutor>>;

beforeAll(async () => {
  jobs = await startTestExecutor({ functions, clock });
});
afterAll(() => jobs.uninstall());

describe("prune-rate-limit-windows", () => {
  test("hourly, it deletes windows idle for a day and keeps the ones in use", async () => {
    const db = await getDb();
    const now = clock.now();
    await db.insert(rateLimitWindows).values([
      { key: "ip-webhook:203.0.113.9", times: [now - 30 * HOUR, now - 26 * HOUR], counts: [1, 4] },
      { key: "key:gone", times: [], counts: [] },
      { key: "user-gen:active", times: [now - 30 * HOUR, now - HOUR], counts: [2, 1] },
    ]);
    await jobs.advance("11m");
    const [run] = await db.select().from(jobRuns).where(eq(jobRuns.functionId, PRUNE));
    expect(run).toMatchObject({ status: "completed", output: { deleted: 2 } });
    expect((await db.select({ key: rateLimitWindows.key }).from(rateLimitWindows)).map((r) => r.key)).toEqual(["user-gen:active"]);
  });
});
