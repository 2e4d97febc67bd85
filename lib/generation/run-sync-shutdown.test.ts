import { afterAll, beforeAll, expect, test } from "vitest";
import { POST as RUN } from "@/app/(gateway)/run/[...path]/route";
import { ManualClock } from "@/lib/jobs/clock";
import { startTestExecutor } from "@/lib/jobs/testing";
import { beginShutdown } from "@/lib/core/shutdown";
import { fundedActor, jobRow, jobsOf, pathOf } from "@/test/generation";
import { call } from "@/test/http";
import { HANG_MS } from "@/test/wait";

/**
 * A shutdown whose grace runs out while sync runs wait: every run in flight (all following the
 * one process-wide grace signal) hands its job to the queue and answers 504 with its request id.
 * Its own file: the shutdown is for the rest of the process.
 */
const FLUX = "fal-ai/flux/dev";
let jobs: Awaited<ReturnType<typeof startTestExecutor>>;
beforeAll(async () => {
  jobs = await startTestExecutor({ clock: new ManualClock() });
});
afterAll(() => jobs.uninstall());
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

test("sync runs in flight when the grace ends hand their jobs over at once: 504 timeout with the request id, one run each", async () => {
  const actors = await Promise.all([fundedActor(100), fundedActor(100), fundedActor(100)]);
  const answers = actors.map(({ key }, i) =>
    call(RUN, `/run/${FLUX}`, {
      params: pathOf(FLUX),
      body: { prompt: `a long night ${i} [latency:60000]`, image_size: { width: 256, height: 256 } },
      key,
    }),
  );
  // Each job submitted (its provider id recorded), then the instance is told to stop.
  for (let waited = 0; waited < HANG_MS; waited += 20) {
    const rows = (await Promise.all(actors.map(({ user }) => jobsOf(user.id)))).flat();
    if (rows.length === actors.length && rows.every((r) => r.providerRequestId)) break;
    await sleep(20);
  }
  const drained = beginShutdown("SIGTERM", 50, {}, () => {});
  const results = await Promise.all(answers);
  await drained;
  for (const res of results) {
    expect(res.status).toBe(504);
    const id = res.body.requestId as string;
    expect(res.body).toMatchObject({ error: "timeout", requestId: id, status: "in_progress" });
    expect(await jobRow(id)).toMatchObject({ status: "queued", providerRequestId: expect.any(String) });
    expect(await jobs.runsForEvent(`generation:${id}`)).toHaveLength(1);
  }
});
