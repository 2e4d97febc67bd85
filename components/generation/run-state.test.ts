import { describe, expect, test } from "vitest";
import { errorViewOf } from "./error-view";
import { initialRunState, isBusy, runReducer, type RunAction, type RunState } from "./run-state";

const run = (actions: RunAction[], from: RunState = initialRunState) => actions.reduce(runReducer, from);
const status = (data: Record<string, unknown>): RunAction => ({ type: "sse", event: { event: "status", data } });
const progress = (data: Record<string, unknown>): RunAction => ({ type: "sse", event: { event: "progress", data } });

describe("the playground's run state", () => {
  test("submit → queued → in_progress with logs and progress → completed result", () => {
    const s = run([
      { type: "submit" },
      { type: "accepted", requestId: "r1", status: "queued", queuePosition: 2 },
      status({ status: "queued", request_id: "r1", queue_position: 1 }),
      progress({ stage: "submitted" }),
      status({ status: "in_progress", request_id: "r1", logs: [{ message: "step 1/4", timestamp: "t1" }] }),
      // The status response repeats the logs so far: they are not duplicated.
      status({
        status: "in_progress",
        request_id: "r1",
        logs: [
          { message: "step 1/4", timestamp: "t1" },
          { message: "step 2/4", timestamp: "t2" },
        ],
      }),
      progress({ stage: "running", percent: 50 }),
      status({ status: "completed", request_id: "r1" }),
    ]);
    expect(s).toEqual({
      ...initialRunState,
      phase: "fetching",
      requestId: "r1",
      queuePosition: null,
      stage: "running",
      percent: 50,
      logs: [
        { message: "step 1/4", timestamp: "t1" },
        { message: "step 2/4", timestamp: "t2" },
      ],
    });
    expect(isBusy(s.phase)).toBe(true);
    const done = runReducer(s, { type: "result", body: { request_id: "r1", images: [] } });
    expect(done).toMatchObject({ phase: "completed", result: { request_id: "r1", images: [] }, percent: 100 });
    expect(isBusy(done.phase)).toBe(false);
  });

  test("a late queued event never moves a running job back; log events and progress messages are logs", () => {
    const s = run([
      { type: "accepted", requestId: "r1" },
      status({ status: "in_progress" }),
      status({ status: "queued", queue_position: 3 }),
      { type: "sse", event: { event: "log", data: { message: "warming up", timestamp: "t0" } } },
      progress({ stage: "storing", percent: 140, message: "re-hosting 1 file" }),
      { type: "sse", event: { event: "heartbeat", data: {} } },
    ]);
    expect(s).toMatchObject({ phase: "in_progress", queuePosition: null, stage: "storing", percent: 100 });
    expect(s.logs.map((l) => l.message)).toEqual(["warming up", "re-hosting 1 file"]);
  });

  test("a failed status ends the run with its error; a failed result body does too", () => {
    expect(
      run([{ type: "accepted", requestId: "r1" }, status({ status: "failed", error: { code: "generation_failed", message: "NSFW" } })]),
    ).toMatchObject({
      phase: "failed",
      failure: { code: "generation_failed", message: "NSFW" },
    });
    expect(run([{ type: "accepted", requestId: "r1" }, status({ status: "FAILED", error: "provider_error" })]).failure).toMatchObject({
      code: "provider_error",
    });
    expect(
      run([
        { type: "accepted", requestId: "r1" },
        { type: "result", body: { status: "failed", error: "generation_failed", message: "boom" } },
      ]),
    ).toMatchObject({
      phase: "failed",
      failure: { code: "generation_failed", message: "boom" },
    });
    expect(run([{ type: "accepted", requestId: "r1" }, status({ status: "cancelled" })]).phase).toBe("cancelled");
  });

  test("a refused submit returns to idle with the error; a new submit clears everything", () => {
    const refused = run([{ type: "submit" }, { type: "error", view: errorViewOf(402, { error: "insufficient_balance", message: "low" }) }]);
    expect(refused).toMatchObject({ phase: "idle", requestId: null, error: { code: "insufficient_balance" } });
    expect(runReducer(refused, { type: "submit" })).toEqual({ ...initialRunState, phase: "submitting" });
  });
});
