import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { getDb } from "@/db/client";
import { idempotencyKeys, jobRuns } from "@/db/schema";
import { ManualClock } from "@/lib/jobs/clock";
import { startTestExecutor } from "@/lib/jobs/testing";
import { POST as QUEUE } from "@/app/(gateway)/queue/[...path]/route";
import { fundedActor, pathOf } from "@/test/generation";
import { call } from "@/test/http";
import { functions } from ".";

const PRUNE = "generation-gateway-prune-idempotency-keys";
const HOUR = 3_600_000;
const FLUX = "fal-ai/flux/dev";
// 10:00 UTC: the hourly cron (minute 29) next fires at 10:29.
const clock = new ManualClock(Date.parse("2030-01-01T10:00:00Z"));
let jobs: Awaited<ReturnType<typeof startTestExecutor>>;

beforeAll(async () => {
  jobs = await startTestExecutor({ functions, clock });
});
afterAll(() => jobs.uninstall());

describe("prune-idempotency-keys", () => {
  test("hourly, it deletes keys past their 24 h window and keeps the ones still honoured", async () => {
    const { user, key } = await fundedActor(100);
    const db = await getDb();
    const keyed = async (name: string, ageMs: number) => {
      const res = await call(QUEUE, `/queue/${FLUX}`, {
        params: pathOf(FLUX),
        body: { prompt: name },
        key,
        headers: { "Idempotency-Key": name },
      });
      expect(res.status).toBe(200);
      await db
        .update(idempotencyKeys)
        .set({ createdAt: new Date(clock.now() + 29 * 60_000 - ageMs) })
        .where(eq(idempotencyKeys.key, name));
    };
    await keyed("two-days-old", 48 * HOUR);
    await keyed("just-expired", 24 * HOUR + 1000);
    await keyed("fresh", 23 * HOUR);
    await jobs.advance("30m");
    const [run] = await db.select().from(jobRuns).where(eq(jobRuns.functionId, PRUNE));
    expect(run).toMatchObject({ status: "completed", output: { deleted: 2 } });
    const left = await db.select({ key: idempotencyKeys.key }).from(idempotencyKeys).where(eq(idempotencyKeys.userId, user.id));
    expect(left.map((r) => r.key)).toEqual(["fresh"]);
  });
});
