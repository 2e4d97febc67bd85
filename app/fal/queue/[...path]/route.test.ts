import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { resetEnv } from "@/lib/core/env";
import { ManualClock } from "@/lib/jobs/clock";
import { startTestExecutor } from "@/lib/jobs/testing";
import { balanceOf, fundedActor, jobRow, ledgerOf } from "@/test/generation";
import { call } from "@/test/http";
import { POST as RUN } from "../../run/[...path]/route";
import { GET, POST, PUT } from "./route";

/**
 * The path prefixes as Python's fal_client uses them with FAL_RUN_HOST=<gateway>/fal/run and
 * FAL_QUEUE_RUN_HOST=<gateway>/fal/queue (fal-ai/fal projects/fal_client/src/fal_client/client.py):
 * it submits to `https://{FAL_QUEUE_RUN_HOST}/{app}`, then follows the status_url / response_url /
 * cancel_url of the submit answer as they are, with `params={"logs": <bool>}` (httpx sends
 * `logs=true|false`), and parses statuses strictly (IN_QUEUE needs queue_position, IN_PROGRESS
 * and COMPLETED need a `logs` key). Streams are read with httpx-sse: every event must be JSON.
 */
const FLUX = "fal-ai/flux/dev";
const FLUX_SQUARE_HD = 23_593;
const BASE = "http://localhost:3000";
const clock = new ManualClock();
let jobs: Awaited<ReturnType<typeof startTestExecutor>>;

beforeAll(async () => {
  // A short hold: status polls of unfinished jobs take the held path and still answer.
  process.env.FAL_STATUS_HOLD_MS = "200";
  resetEnv();
  jobs = await startTestExecutor({ clock });
});
afterAll(() => {
  jobs.uninstall();
  delete process.env.FAL_STATUS_HOLD_MS;
  resetEnv();
});

/** The headers fal_client's httpx client sends (auth.py, client.py). */
const pyHeaders = (key: string) => ({ authorization: `Key ${key}`, "user-agent": "fal-client/0.7.0 (python)", accept: "*/*" });

/** A request to an absolute URL the gateway gave out, routed as Next.js would. */
function follow(method: "GET" | "PUT", url: string, key: string, params = "") {
  const path = new URL(url).pathname;
  expect(path.startsWith("/fal/queue/")).toBe(true);
  const segments = path.slice("/fal/queue/".length).split("/").map(decodeURIComponent);
  return call(method === "GET" ? GET : PUT, path + params, { method, headers: pyHeaders(key), params: { path: segments } });
}

const submit = (key: string, input: unknown, app = FLUX) =>
  call(POST, `/fal/queue/${app}`, {
    body: input,
    headers: { ...pyHeaders(key), "content-type": "application/json", "x-fal-queue-priority": "low", "x-fal-runner-hint": "eu" },
    params: { path: app.split("/") },
  });

/** Python's _parse_status, which raises on anything else. */
function parseStatus(data: Record<string, unknown>) {
  if (data.status === "IN_QUEUE") return { kind: "Queued", position: data.queue_position as number };
  if (data.status === "IN_PROGRESS") return { kind: "InProgress", logs: data.logs };
  if (data.status === "COMPLETED") {
    if (!("logs" in data)) throw new Error("KeyError: logs");
    return {
      kind: "Completed",
      logs: data.logs,
      metrics: data.metrics ?? {},
      error: data.error ?? null,
      error_type: data.error_type ?? null,
    };
  }
  throw new Error(`Unknown status: ${String(data.status)}`);
}

describe("success", () => {
  test("submit → follow status_url and response_url as given → the output; billed once", async () => {
    const { user, key } = await fundedActor(100);
    const res = await submit(key, { prompt: "python lighthouse", seed: 11 });
    expect(res.status).toBe(200);
    const id = res.body.request_id;
    expect(res.headers.get("x-fal-request-id")).toBe(id);
    expect(res.body).toMatchObject({
      status: "IN_QUEUE",
      response_url: `${BASE}/fal/queue/fal-ai/flux/requests/${id}`,
      status_url: `${BASE}/fal/queue/fal-ai/flux/requests/${id}/status`,
      cancel_url: `${BASE}/fal/queue/fal-ai/flux/requests/${id}/cancel`,
    });
    const queued = await follow("GET", res.body.status_url, key, "?logs=false");
    expect(queued.status).toBe(202);
    expect(parseStatus(queued.body)).toEqual({ kind: "Queued", position: expect.any(Number) });

    await jobs.drain();
    const done = await follow("GET", res.body.status_url, key, "?logs=true");
    expect(done.status).toBe(200);
    const parsed = parseStatus(done.body);
    expect(parsed).toMatchObject({ kind: "Completed", error: null, metrics: { inference_time: expect.any(Number) } });
    expect(Array.isArray(parsed.logs)).toBe(true);
    const out = await follow("GET", res.body.response_url, key);
    expect(out.status).toBe(200);
    expect(out.body).toMatchObject({ seed: 11, images: [{ width: 1024, height: 1024 }] });
    expect(await jobRow(id)).toMatchObject({ surface: "fal", mode: "queue", status: "completed" });
    expect(await ledgerOf(user.id)).toEqual([{ type: "generation_reserve", amount: -FLUX_SQUARE_HD, generationId: id }]);
  });

  test("cancel_url of a queued request → 200 {status: OK}, refunded", async () => {
    const { user, key } = await fundedActor(100);
    const res = await submit(key, { prompt: "cancel me" });
    const cancelled = await follow("PUT", res.body.cancel_url, key);
    expect(cancelled.status).toBe(200);
    expect(cancelled.body).toEqual({ status: "OK" });
    expect(await balanceOf(user.id)).toBe(1_000_000);
  });

  test("run and stream under /fal/run: the output; every SSE block is one JSON event", async () => {
    const { key } = await fundedActor(100);
    const run = await call(RUN, `/fal/run/${FLUX}`, {
      body: { prompt: "py sync", seed: 3 },
      headers: { ...pyHeaders(key), "content-type": "application/json" },
      params: { path: FLUX.split("/") },
    });
    expect(run.status).toBe(200);
    expect(run.body).toMatchObject({ seed: 3, images: [{ width: 1024 }] });
    expect(run.headers.get("x-fal-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    const stream = await call(RUN, `/fal/run/${FLUX}/stream`, {
      body: { prompt: "py stream", seed: 4 },
      headers: { ...pyHeaders(key), "content-type": "application/json", accept: "text/event-stream" },
      params: { path: [...FLUX.split("/"), "stream"] },
    });
    const blocks = stream.text.split("\n\n").filter((b) => b.trim() && !b.startsWith(":"));
    expect(blocks.length).toBe(1);
    for (const block of blocks) {
      expect(block.startsWith("data: ")).toBe(true);
      expect(JSON.parse(block.slice(6))).toMatchObject({ seed: 4 });
    }
  });

  test("namespaced ids keep their namespace in the URLs (workflows/owner/app)", async () => {
    const { key } = await fundedActor(100);
    // No such workflow in the catalog: 404 with fal's detail, nothing charged.
    const res = await submit(key, { prompt: "x" }, "workflows/me/wf/sub");
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ detail: expect.any(String), error_type: "unknown_model" });
  });
});

describe("validation", () => {
  test("a model failure: COMPLETED with error and error_type (as Python reads them), result 422 with detail", async () => {
    const { key } = await fundedActor(100);
    const res = await submit(key, { prompt: "py break [fail:generation]" });
    await jobs.drain();
    const status = parseStatus((await follow("GET", res.body.status_url, key, "?logs=false")).body);
    expect(status).toMatchObject({ kind: "Completed", error: expect.any(String), error_type: "generation_failed" });
    const result = await follow("GET", res.body.response_url, key);
    expect(result.status).toBe(422);
    expect(result.headers.get("x-fal-error-type")).toBe("generation_failed");
    expect(result.body.detail).toEqual([{ loc: ["body"], msg: expect.any(String), type: "generation_failed" }]);
  });

  test("unknown tails and methods: 404 / 405 with detail", async () => {
    const { key } = await fundedActor(100);
    const id = "00000000-0000-4000-8000-000000000000";
    const missing = await follow("GET", `${BASE}/fal/queue/fal-ai/flux/requests/${id}/status`, key);
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ detail: "Request not found" });
    const wrong = await call(PUT, `/fal/queue/${FLUX}`, { method: "PUT", headers: pyHeaders(key), params: { path: FLUX.split("/") } });
    expect(wrong.status).toBe(405);
  });
});

describe("auth", () => {
  test("a bad key → 401 with detail, as Python's FalClientHTTPError reads it", async () => {
    const res = await submit(`gw_live_${"a".repeat(40)}`, { prompt: "x" });
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ detail: expect.any(String), error_type: "unauthorized" });
    expect(res.headers.get("x-fal-error-type")).toBe("unauthorized");
  });
});
