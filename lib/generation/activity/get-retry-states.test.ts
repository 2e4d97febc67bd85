import { contextOf } from "@/test/factories";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { POST } from "@/app/(gateway)/queue/[...path]/route";
import { ManualClock } from "@/lib/jobs/clock";
import { startTestExecutor } from "@/lib/jobs/testing";
import { fundedActor, jobRow, pathOf } from "@/test/generation";
import { call } from "@/test/http";
import { getRetryStates, listInFlightRuns } from "./get-retry-states";

const MODEL = "fal-ai/flux/schnell";
const clock = new ManualClock();
let jobs: Awaited<ReturnType<typeof startTestExecutor>>;

beforeAll(async () => {
  jobs = await startTestExecutor({ clock });
});
afterAll(() => jobs.uninstall());

const queue = (prompt: string, session: string) => call(POST, `/queue/${MODEL}`, { params: pathOf(MODEL), body: { prompt }, session });

describe("success", () => {
  test("a job whose provider refuses the submit reports its retry until it goes through; nobody else sees it", async () => {
    const { user, session } = await fundedActor(10);
    const other = await fundedActor(10);
    const submitted = await queue("a harbour at night [fail:provider:2]", session);
    expect(submitted.status).toBe(200);
    const id = submitted.body.requestId as string;
    await jobs.drain();

    const first = (await getRetryStates(await contextOf(user), [id])).get(id);
    expect(first).toMatchObject({ attempt: 1, maxAttempts: 6, failing: "submit" });
    expect(first!.nextAt).toEqual(expect.any(String));
    expect((await jobRow(id))!.status).toBe("queued");
    expect((await getRetryStates(await contextOf(other.user), [id])).size).toBe(0);
    expect(await listInFlightRuns(await contextOf(user))).toEqual([
      { id, modelId: MODEL, status: "queued", createdAt: expect.any(String), queuePosition: null, retry: first },
    ]);
    expect(await listInFlightRuns(await contextOf(other.user))).toEqual([]);

    await jobs.advance("1m");
    await jobs.drain();
    await jobs.advance("1m");
    await jobs.drain();
    expect((await jobRow(id))!.status).toBe("completed");
    expect((await getRetryStates(await contextOf(user), [id])).size).toBe(0);
    expect(await listInFlightRuns(await contextOf(user))).toEqual([]);
  });

  test("a job that went through at once has no retry state", async () => {
    const { user, session } = await fundedActor(10);
    const submitted = await queue("a quiet lake", session);
    await jobs.drain();
    expect((await getRetryStates(await contextOf(user), [submitted.body.requestId, "no-such-id"])).size).toBe(0);
  });
});
