import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { eq } from "drizzle-orm";
import { getDb } from "@/db/client";
import { apiKeys } from "@/db/schema";
import { flushUsageCounts } from "@/lib/rate-limit/usage-counts";
import { resetEnv } from "@/lib/core/env";
import { ManualClock } from "@/lib/jobs/clock";
import { startTestExecutor } from "@/lib/jobs/testing";
import { localProvider } from "@/lib/provider/registry";
import { createActor } from "@/test/factories";
import { activityOf, balanceOf, eventsOf, fundedActor, jobRow, ledgerOf, pathOf, readSse, simulatorRequestsFor } from "@/test/generation";
import { call } from "@/test/http";
import { readEvents } from "@/test/sse";
import { POST as RUN } from "../../run/[...path]/route";
import { GET, POST, PUT } from "./route";

const FLUX = "fal-ai/flux/dev";
const FLUX_SQUARE_HD = 23_593;
const clock = new ManualClock();
let jobs: Awaited<ReturnType<typeof startTestExecutor>>;

beforeAll(async () => {
  jobs = await startTestExecutor({ clock });
});
afterAll(() => jobs.uninstall());

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const submit = (body: unknown, key: string, query = "") => call(POST, `/queue/${FLUX}${query}`, { params: pathOf(FLUX), body, key });
const read = (id: string, tail: string, key: string, modelId = FLUX) =>
  call(GET, `/queue/${modelId}/requests/${id}${tail}`, {
    params: pathOf(modelId, "requests", id, ...(tail ? tail.slice(1).split("?")[0]!.split("/") : [])),
    key,
  });
const cancel = (id: string, key: string) =>
  call(PUT, `/queue/${FLUX}/requests/${id}/cancel`, { method: "PUT", params: pathOf(FLUX, "requests", id, "cancel"), key });

describe("success", () => {
  test("queued: 200 {requestId, status}, 202 while unfinished, then the job runs and the result is served", async () => {
    const { user, key } = await fundedActor(100);
    const res = await submit({ prompt: "queued lighthouse", seed: 3 }, key);
    expect(res.status).toBe(200);
    const id = res.body.requestId;
    expect(res.body).toEqual({
      requestId: id,
      request_id: id,
      status: "queued",
      response_url: `http://localhost:3000/queue/${FLUX}/requests/${id}`,
      status_url: `http://localhost:3000/queue/${FLUX}/requests/${id}/status`,
      cancel_url: `http://localhost:3000/queue/${FLUX}/requests/${id}/cancel`,
    });
    expect(await balanceOf(user.id)).toBe(1_000_000 - FLUX_SQUARE_HD);
    const pending = await read(id, "", key);
    expect(pending.status).toBe(202);
    expect(pending.body).toMatchObject({ status: "queued", request_id: id });

    await jobs.drain();
    // fal's clients drop the model's subpath on result calls: `fal-ai/flux` finds it too.
    const done = await read(id, "", key, "fal-ai/flux");
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({
      request_id: id,
      seed: 3,
      images: [{ url: expect.stringContaining("/files/r/"), width: 1024, height: 1024 }],
    });
    const passthrough = await call(GET, `/queue/${FLUX}/requests/${id}?passthrough=1`, { params: pathOf(FLUX, "requests", id), key });
    expect(passthrough.body.images[0].url).toMatch(/\/sim\/image\//);
    expect(await ledgerOf(user.id)).toEqual([{ type: "generation_reserve", amount: -FLUX_SQUARE_HD, generationId: id }]);
    expect((await activityOf(id))[0]).toMatchObject({ operation: "queue", status: "completed", credits: FLUX_SQUARE_HD });
    const status = await read(id, "/status", key);
    expect(status.body).toMatchObject({ status: "completed", request_id: id });
  });

  test("status with logs=1 carries the runner's logs; after the end a first stream connection gets the final event, a reconnect from it 204, and Last-Event-ID 0 replays the whole log", async () => {
    const { key } = await fundedActor(100);
    const id = (await submit({ prompt: "with logs [latency:300]", num_inference_steps: 4 }, key)).body.requestId;
    await jobs.drain();
    await sleep(350);
    await jobs.advance("1s");
    expect((await jobRow(id)).status).toBe("completed");
    const status = await call(GET, `/queue/${FLUX}/requests/${id}/status?logs=1`, { params: pathOf(FLUX, "requests", id, "status"), key });
    expect(status.body.logs.map((l: { message: string }) => l.message)).toEqual(
      expect.arrayContaining([`Runner acquired; loading ${FLUX}`, "Step 4/4", "Generation finished; uploading outputs"]),
    );
    // A first connection after the end gets the final event alone, with its id; a reconnect from it is 204.
    const late = await read(id, "/status/stream", key);
    expect(late.status).toBe(200);
    const lateEvents = (await readEvents(late.response)).events;
    expect(lateEvents).toEqual([
      { event: "status", id: expect.stringMatching(/^\d+$/), data: expect.objectContaining({ status: "completed" }) },
    ]);
    const lateProgress = (await readEvents((await read(id, "/progress/stream", key)).response)).events;
    expect(lateProgress).toEqual([{ event: "progress", id: expect.stringMatching(/^\d+$/), data: { stage: "completed" } }]);
    const reconnects: [string, string][] = [
      ["status/stream", lateEvents[0]!.id!],
      ["progress/stream", lateProgress[0]!.id!],
    ];
    for (const [tail, last] of reconnects) {
      const again = await call(GET, `/queue/${FLUX}/requests/${id}/${tail}`, {
        params: pathOf(FLUX, "requests", id, ...tail.split("/")),
        key,
        headers: { "last-event-id": last },
      });
      expect(again.status).toBe(204);
    }
    const fromStart = (tail: string) =>
      call(GET, `/queue/${FLUX}/requests/${id}/${tail}`, {
        params: pathOf(FLUX, "requests", id, ...tail.split("/")),
        key,
        headers: { "last-event-id": "0" },
      });
    const stream = await fromStart("status/stream");
    expect(stream.headers.get("content-type")).toContain("text/event-stream");
    const events = await readSse(stream.response);
    expect(events.map((e) => `${e.event}:${e.data.status}`)).toEqual(["status:queued", "status:in_progress", "status:completed"]);
    const progress = await readSse((await fromStart("progress/stream")).response);
    expect(progress.map((e) => e.data.stage)).toEqual(["queued", "submitted", "running", "storing", "completed"]);
  });

  test("a stream opened while the job runs follows it to the final event", async () => {
    const { key } = await fundedActor(100);
    const id = (await submit({ prompt: "followed [latency:200]" }, key)).body.requestId;
    const stream = read(id, "/status/stream", key);
    await jobs.drain();
    await sleep(250);
    await jobs.advance("1s");
    const events = await readSse((await stream).response);
    expect(events.at(-1)).toMatchObject({ event: "status", data: { status: "completed", request_id: id } });
  });
});

describe("limits", () => {
  test("a user holds at most STREAMS_PER_USER_MAX streams open at once: the next is 429 until one closes", async () => {
    process.env.STREAMS_PER_USER_MAX = "3";
    resetEnv();
    try {
      const { key } = await fundedActor(100);
      const id = (await submit({ prompt: "watched [latency:60000]" }, key)).body.requestId;
      await jobs.drain();
      // Opened straight on the handler, bodies left unread: each stream stays open until aborted.
      const openFor = (requestId: string, apiKey: string, abort: AbortController) =>
        GET(
          new Request(`http://localhost:3000/queue/${FLUX}/requests/${requestId}/status/stream`, {
            headers: { authorization: `Bearer ${apiKey}` },
            signal: abort.signal,
          }),
          {
            params: Promise.resolve(pathOf(FLUX, "requests", requestId, "status", "stream")),
          },
        );
      const open = (abort: AbortController) => openFor(id, key, abort);
      const aborts = [new AbortController(), new AbortController(), new AbortController()];
      const streams = await Promise.all(aborts.map(open));
      expect(streams.map((r) => r.status)).toEqual([200, 200, 200]);
      const refused = await open(new AbortController());
      expect(refused.status).toBe(429);
      expect(await refused.json()).toMatchObject({ success: false, error: "rate_limited" });
      expect(refused.headers.get("retry-after")).toBe("1");
      // Another user is not affected.
      const other = await fundedActor(100);
      const theirs = (await submit({ prompt: "theirs [latency:60000]" }, other.key)).body.requestId;
      const theirAbort = new AbortController();
      expect((await openFor(theirs, other.key, theirAbort)).status).toBe(200);
      aborts[0]!.abort();
      // The slot frees once the aborted stream's producer has returned (after a read it had in
      // flight): wait for that, not for a clock. A refused attempt holds no slot.
      const reopened = new AbortController();
      let again = await open(reopened);
      while (again.status === 429) {
        await sleep(20);
        again = await open(reopened);
      }
      expect(again.status).toBe(200);
      for (const a of [...aborts, reopened, theirAbort]) a.abort();
    } finally {
      delete process.env.STREAMS_PER_USER_MAX;
      resetEnv();
    }
  });
});

describe("polling", () => {
  test("status and result polls read the job beside the key's standing in one statement: each poll counted, the key's limit applied with its headers, a disabled key refused at once", async () => {
    const { user, key, apiKey } = await fundedActor(100);
    const id = (await submit({ prompt: "polled [latency:60000]" }, key)).body.requestId;
    const db = await getDb();
    // Limit off: polls answer the job and count the key's requests.
    await db.update(apiKeys).set({ rateLimitEnabled: false }).where(eq(apiKeys.id, apiKey.id));
    const before = (await db.select().from(apiKeys).where(eq(apiKeys.id, apiKey.id)))[0]!.requestCount;
    const polled = await read(id, "/status", key);
    expect(polled.status).toBe(200);
    expect(polled.body).toMatchObject({ status: "queued", request_id: id });
    expect((await read(id, "", key)).status).toBe(202);
    await flushUsageCounts();
    expect((await db.select().from(apiKeys).where(eq(apiKeys.id, apiKey.id)))[0]!.requestCount).toBe(before + 2);
    // Another user's request, or a malformed id: 404 as before.
    const other = await fundedActor(100);
    expect((await read(id, "/status", other.key)).status).toBe(404);
    expect((await read("not-a-uuid", "/status", key)).status).toBe(404);

    // Limit on (4 per window): polls pass with the X-RateLimit headers until the window is full,
    // then 429 with Retry-After (a remembered lookup learns of the change from its next poll).
    await db.update(apiKeys).set({ rateLimitEnabled: true, rateLimitMax: 4 }).where(eq(apiKeys.id, apiKey.id));
    const answers = [];
    for (let i = 0; i < 8 && answers.at(-1)?.status !== 429; i++) answers.push(await read(id, "/status", key));
    const passed = answers.slice(0, -1);
    const limited = answers.at(-1)!;
    expect(passed.length).toBeGreaterThanOrEqual(3);
    expect(passed.every((a) => a.status === 200 && a.body.request_id === id && a.body.status === "queued")).toBe(true);
    expect(passed.at(-1)!.headers.get("x-ratelimit-remaining")).toBe("0");
    expect(passed.at(-2)!.headers.get("x-ratelimit-remaining")).toBe("1");
    expect(limited.status).toBe(429);
    expect(limited.body).toMatchObject({ error: "rate_limited" });
    expect(limited.headers.get("x-ratelimit-limit")).toBe("4");
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);

    // A key disabled meanwhile: refused on its next poll, though its lookup was remembered.
    await db.update(apiKeys).set({ rateLimitEnabled: false, enabled: false }).where(eq(apiKeys.id, apiKey.id));
    const refused = await read(id, "/status", key);
    expect(refused.status).toBe(401);
    expect(refused.body).toMatchObject({ error: "unauthorized" });
    void user;
  });
});

describe("cancel", () => {
  test("before it runs: {ok: true}, status cancelled, refunded exactly once; the result says cancelled", async () => {
    const { user, key } = await fundedActor(100);
    const id = (await submit({ prompt: "never mind [latency:60000]" }, key)).body.requestId;
    await jobs.drain();
    const res = await cancel(id, key);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ok: true, status: "cancelled" });
    expect(await cancel(id, key).then((r) => r.body)).toEqual({ ok: false, status: "cancelled" });
    await jobs.advance("2s");
    expect(await balanceOf(user.id)).toBe(1_000_000);
    expect((await ledgerOf(user.id)).map((t) => t.type)).toEqual(["generation_reserve", "generation_refund"]);
    expect((await activityOf(id))[0]).toMatchObject({ status: "cancelled", credits: 0 });
    // queued, its queue position a second in (the submit step's look at the provider), cancelled.
    expect((await eventsOf(id)).filter((e) => e.kind === "status").map((e) => e.status)).toEqual(["queued", "queued", "cancelled"]);
  });

  test("running at the provider before the gateway saw it: three cancels at once stop it there, one answers ok, the job ends cancelled, refunded once", async () => {
    const { user, key } = await fundedActor(100);
    const id = (await submit({ prompt: "stop it [latency:8000]" }, key)).body.requestId;
    await jobs.drain();
    const job = await jobRow(id);
    expect(job).toMatchObject({ status: "queued", providerRequestId: expect.any(String) });
    // The simulator's own queue is the first fifth of the latency; wait (on the provider, not the
    // executor's clock, so the gateway does not look) until it runs the job.
    const ref = { endpointId: FLUX, providerRequestId: job.providerRequestId! };
    while ((await localProvider().status(ref)).status === "queued") await sleep(100);
    const answers = await Promise.all([cancel(id, key), cancel(id, key), cancel(id, key)]);
    expect(answers.map((a) => a.body).sort((a, b) => Number(b.ok) - Number(a.ok))).toEqual([
      { ok: true, status: "cancelled" },
      { ok: false, status: "cancelled" },
      { ok: false, status: "cancelled" },
    ]);
    // The queue function then finds the provider's "cancelled" failure: the ending it would write is a no-op.
    await jobs.runUntilIdle({ withinMs: 60 * 60_000 });
    expect(await jobRow(id)).toMatchObject({ status: "cancelled" });
    expect((await ledgerOf(user.id)).map((t) => t.type)).toEqual(["generation_reserve", "generation_refund"]);
    expect(await balanceOf(user.id)).toBe(1_000_000);
  });

  test("after it started running: {ok: false, status: in_progress}, and the job completes", async () => {
    const { key } = await fundedActor(100);
    // The simulator's latency is wall-clock time: long enough that a loaded machine still cancels
    // while the job runs, then the test waits for the completion instead of guessing its moment.
    const id = (await submit({ prompt: "too late [latency:3000]" }, key)).body.requestId;
    await jobs.drain();
    // The first fifth of the latency is the simulator's queue; wait until the job is running.
    for (let i = 0; i < 20 && (await jobRow(id)).status !== "in_progress"; i++) {
      await sleep(100);
      await jobs.advance("1s");
    }
    expect((await jobRow(id)).status).toBe("in_progress");
    expect((await cancel(id, key)).body).toEqual({ ok: false, status: "in_progress" });
    for (let i = 0; i < 100 && (await jobRow(id)).status !== "completed"; i++) {
      await sleep(200);
      await jobs.advance("2s");
    }
    expect((await jobRow(id)).status).toBe("completed");
  });
});

describe("failures", () => {
  test("a failed job: the result answers generation_failed with status failed; refunded once", async () => {
    const { user, key } = await fundedActor(100);
    const id = (await submit({ prompt: "no [fail:generation:content_policy_violation]" }, key)).body.requestId;
    await jobs.drain();
    const res = await read(id, "", key);
    expect(res.status).toBe(500);
    expect(res.body).toMatchObject({ success: false, error: "generation_failed", requestId: id, status: "failed" });
    expect((await read(id, "/status", key)).body).toMatchObject({ status: "failed", error: "generation_failed" });
    expect(await balanceOf(user.id)).toBe(1_000_000);
    expect((await ledgerOf(user.id)).map((t) => t.type)).toEqual(["generation_reserve", "generation_refund"]);
  });

  test("provider 5xx on fetching the result is retried inside the job, then it completes", async () => {
    const { key } = await fundedActor(100);
    const id = (await submit({ prompt: "flaky result [fail:result:2]" }, key)).body.requestId;
    await jobs.runUntilIdle({ withinMs: 60 * 60_000 });
    expect((await jobRow(id)).status).toBe("completed");
  });

  test("sync /run past RUN_SYNC_TIMEOUT_MS answers 504 timeout with requestId; the job goes on, fails, and is refunded exactly once", async () => {
    process.env.RUN_SYNC_TIMEOUT_MS = "100";
    resetEnv();
    try {
      const { user, key } = await fundedActor(100);
      const res = await call(RUN, `/run/${FLUX}`, {
        params: pathOf(FLUX),
        body: { prompt: "slow then broken [latency:400] [fail:generation]" },
        key,
      });
      expect(res.status).toBe(504);
      const id = res.body.requestId;
      expect(res.body).toMatchObject({ success: false, error: "timeout", requestId: id });
      await jobs.drain();
      await sleep(400);
      await jobs.advance("2s");
      expect(await jobRow(id)).toMatchObject({ status: "failed", errorCode: "generation_failed" });
      // The job took over the request the sync run had submitted: one provider run only.
      expect(await simulatorRequestsFor(id)).toHaveLength(1);
      expect((await ledgerOf(user.id)).map((t) => t.type)).toEqual(["generation_reserve", "generation_refund"]);
      expect(await balanceOf(user.id)).toBe(1_000_000);
      expect((await read(id, "", key)).body).toMatchObject({ error: "generation_failed" });
    } finally {
      delete process.env.RUN_SYNC_TIMEOUT_MS;
      resetEnv();
    }
  });
});

describe("crash", () => {
  test("the executor driving the job stops mid-generation; a new one finishes it, charged once, submitted once", async () => {
    const { user, key } = await fundedActor(100);
    const id = (await submit({ prompt: "survive a restart [latency:300]" }, key)).body.requestId;
    await jobs.drain();
    expect((await jobRow(id)).providerRequestId).toEqual(expect.any(String));
    jobs.kill();
    jobs.uninstall();
    await sleep(350);
    jobs = await startTestExecutor({ clock });
    await jobs.advance("31s");
    await jobs.runUntilIdle({ withinMs: 10 * 60_000 });
    expect(await jobRow(id)).toMatchObject({ status: "completed" });
    expect(await simulatorRequestsFor(id)).toHaveLength(1);
    expect(await ledgerOf(user.id)).toEqual([{ type: "generation_reserve", amount: -FLUX_SQUARE_HD, generationId: id }]);
    expect(await activityOf(id)).toHaveLength(1);
  });
});

describe("auth", () => {
  test("another user's request is 404 on every read and on cancel, exactly like a missing one", async () => {
    const { key } = await fundedActor(100);
    const id = (await submit({ prompt: "mine" }, key)).body.requestId;
    const other = await createActor();
    const missing = "00000000-0000-4000-8000-000000000000";
    for (const tail of ["", "/status", "/status/stream", "/progress/stream"]) {
      const foreign = await read(id, tail, other.key);
      const absent = await read(missing, tail, other.key);
      expect(foreign.status).toBe(404);
      expect(foreign.body).toEqual({ success: false, error: "not_found", message: "Request not found" });
      expect(absent.body).toEqual(foreign.body);
    }
    expect((await cancel(id, other.key)).status).toBe(404);
    await jobs.drain();
  });

  test("a callback URL on a private address is refused with 400 before any charge", async () => {
    const { user, key } = await fundedActor(100);
    const res = await submit({ prompt: "x" }, key, "?webhook=" + encodeURIComponent("http://127.0.0.1:9/hook"));
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: "invalid_query", issues: [{ path: ["webhook"] }] });
    expect(await balanceOf(user.id)).toBe(1_000_000);
  });
});
