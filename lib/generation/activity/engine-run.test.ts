import { contextOf } from "@/test/factories";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { GET, POST } from "@/app/(gateway)/queue/[...path]/route";
import { readSse, type SseEvent } from "@/components/generation/read-sse";
import { resultView } from "@/components/generation/result-media";
import { initialRunState, runReducer, type RunState } from "@/components/generation/run-state";
import { ManualClock } from "@/lib/jobs/clock";
import { startTestExecutor } from "@/lib/jobs/testing";
import { activityOf, balanceOf, fundedActor, pathOf } from "@/test/generation";
import { ctxOf } from "@/test/generation-records";
import { call } from "@/test/http";
import { openStream } from "@/test/sse";
import { getActivityDetail } from "./get-activity-detail";
import { getRunCost } from "./get-run-cost";

/**
 * The playground and the Activity page against the real engine: a job queued with the session
 * cookie (as the page does), its SSE read and reduced by the page's own code, then the reads the
 * pages make once it ended.
 */
const MODEL = "fal-ai/flux/schnell";
const clock = new ManualClock();
let jobs: Awaited<ReturnType<typeof startTestExecutor>>;

beforeAll(async () => {
  jobs = await startTestExecutor({ clock });
});
afterAll(() => jobs.uninstall());

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const queue = (input: unknown, session: string) => call(POST, `/queue/${MODEL}`, { params: pathOf(MODEL), body: input, session });
/** A stream's response as soon as it is open (its body unread). */
const open = (id: string, tail: string[], session: string, query = "") =>
  openStream(GET, `/queue/${MODEL}/requests/${id}/${tail.join("/")}${query}`, { params: pathOf(MODEL, "requests", id, ...tail), session });

async function reduceStream(res: Response, from: RunState): Promise<RunState> {
  const events: SseEvent[] = [];
  await readSse(res.body!, (e) => events.push(e));
  return events.reduce((s, event) => runReducer(s, { type: "sse", event }), from);
}

describe("success", () => {
  test("a session-queued run: the streams reduce to its end, then cost, result and detail agree with the ledger", async () => {
    const { user, session } = await fundedActor(10);
    // A little simulated latency, so the runner reports its steps as logs.
    const submitted = await queue({ prompt: "a lighthouse at dusk [latency:300]", image_size: "square" }, session);
    expect(submitted.status).toBe(200);
    const id = submitted.body.requestId as string;
    let state = runReducer(runReducer(initialRunState, { type: "submit" }), {
      type: "accepted",
      requestId: id,
      status: submitted.body.status,
    });
    expect(state.phase).toBe("queued");

    // The page opens its streams while the job runs (once it ended, a new connection is 204).
    const statusStream = await open(id, ["status", "stream"], session, "?logs=1");
    const progressStream = await open(id, ["progress", "stream"], session);
    await jobs.drain();
    await sleep(350);
    await jobs.advance("1s");
    state = await reduceStream(statusStream, state);
    state = await reduceStream(progressStream, state);
    expect(state).toMatchObject({ phase: "fetching", requestId: id, stage: "completed", failure: null });
    expect(state.logs.map((l) => l.message)).toContain("Generation finished; uploading outputs");

    const result = await call(GET, `/queue/${MODEL}/requests/${id}`, { params: pathOf(MODEL, "requests", id), session });
    state = runReducer(state, { type: "result", body: result.body });
    expect(state.phase).toBe("completed");
    const media = resultView(state.result).media;
    expect(media).toEqual([
      expect.objectContaining({ kind: "image", field: "images[0]", width: 512, height: 512, contentType: "image/jpeg" }),
    ]);

    const charged = 100_000 - (await balanceOf(user.id));
    expect(charged).toBeGreaterThan(0);
    expect(await getRunCost(await contextOf(user), id)).toEqual({
      requestId: id,
      status: "completed",
      sandbox: false,
      reservedCredits: charged,
      settledCredits: charged,
    });

    const [record] = await activityOf(id);
    const detail = await getActivityDetail(await ctxOf(session), record!.id);
    expect(detail.record).toMatchObject({ id: record!.id, requestId: id, status: "completed", credits: charged, operation: "queue" });
    expect(detail.generation).toMatchObject({
      input: { prompt: "a lighthouse at dusk [latency:300]", image_size: "square" },
      reservedCredits: charged,
      settledCredits: charged,
    });
    expect(detail.assets).toHaveLength(1);
    expect(detail.assets[0]).toMatchObject({ status: "stored", contentType: "image/jpeg" });
    expect((await getActivityDetail(await ctxOf(session), detail.record.falRequestId!)).record.id).toBe(record!.id);
  });

  test("a failed run reduces to its failure from the status stream, and its cost reads as refunded", async () => {
    const { user, session } = await fundedActor(10);
    const id = (await queue({ prompt: "a fox [fail:generation]", image_size: "square" }, session)).body.requestId as string;
    const statusStream = await open(id, ["status", "stream"], session, "?logs=1");
    await jobs.drain();
    await jobs.advance("1s");
    const state = await reduceStream(statusStream, { ...initialRunState, phase: "queued", requestId: id });
    expect(state).toMatchObject({ phase: "failed", failure: { code: "generation_failed" } });
    const result = await call(GET, `/queue/${MODEL}/requests/${id}`, { params: pathOf(MODEL, "requests", id), session });
    const after = runReducer(state, { type: "result", body: { ...(result.body as object), status: "failed" } });
    expect(after.failure).toEqual({ code: "generation_failed", message: expect.stringContaining("refunded") });
    expect(await balanceOf(user.id)).toBe(100_000);
    expect(await getRunCost(await contextOf(user), id)).toMatchObject({ status: "failed", reservedCredits: expect.any(Number) });
  });
});
