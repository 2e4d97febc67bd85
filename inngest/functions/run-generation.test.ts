import { afterAll, beforeAll, expect, test } from "vitest";
import { ManualClock } from "@/lib/jobs/clock";
import { startTestExecutor } from "@/lib/jobs/testing";
import { balanceOf, fundedActor, jobRow, ledgerOf, pathOf } from "@/test/generation";
import { call } from "@/test/http";
import { GET, POST } from "@/app/(gateway)/queue/[...path]/route";

// In a file of its own: a provider refusing every call opens its circuit breaker for the process,
// which would change what other files' tests get from it.
const FLUX = "fal-ai/flux/dev";
let jobs: Awaited<ReturnType<typeof startTestExecutor>>;

beforeAll(async () => {
  jobs = await startTestExecutor({ clock: new ManualClock() });
});
afterAll(() => jobs.uninstall());

test("a provider that refuses every submit: the run's retries run out and its failure handler ends the job as provider_error, refunded once", async () => {
  const { user, key } = await fundedActor(100);
  const submitted = await call(POST, `/queue/${FLUX}`, { params: pathOf(FLUX), body: { prompt: "never accepted [fail:provider]" }, key });
  expect(submitted.status).toBe(200);
  const id = submitted.body.requestId as string;

  await jobs.runUntilIdle({ withinMs: 24 * 60 * 60_000 });

  const runs = await jobs.runsForEvent(`generation:${id}`);
  expect(runs).toHaveLength(1);
  expect(runs[0]).toMatchObject({ status: "failed" });
  const row = await jobRow(id);
  expect(row).toMatchObject({ status: "failed", errorCode: "provider_error" });
  expect(row.errorMessage).toMatch(/^The provider kept failing: /);
  const status = await call(GET, `/queue/${FLUX}/requests/${id}/status`, { params: pathOf(FLUX, "requests", id, "status"), key });
  expect(status.body).toMatchObject({ status: "failed", error: "provider_error" });
  expect((await ledgerOf(user.id)).map((t) => t.type)).toEqual(["generation_reserve", "generation_refund"]);
  expect(await balanceOf(user.id)).toBe(1_000_000);
  // The failure handler's own run finished too: nothing is left to run.
  expect(await jobs.activeRunCount()).toBe(0);
});
