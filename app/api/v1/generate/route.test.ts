import { eq } from "drizzle-orm";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { getDb } from "@/db/client";
import { webhookDeliveries } from "@/db/schema";
import { resetEnv } from "@/lib/core/env";
import { ManualClock } from "@/lib/jobs/clock";
import { startTestExecutor } from "@/lib/jobs/testing";
import { webhookSecretOf } from "@/lib/account/webhook-secret";
import { createActor } from "@/test/factories";
import { activityOf, balanceOf, fundedActor, jobRow, ledgerOf, readSse } from "@/test/generation";
import { call } from "@/test/http";
import { openStream } from "@/test/sse";
import { startCallbackReceiver } from "@/test/servers/callback-receiver";
import { GET as GET_REQUEST } from "../requests/[requestId]/route";
import { GET as STREAM } from "../requests/[requestId]/stream/route";
import { POST } from "./route";

const FLUX = "fal-ai/flux/dev";
const clock = new ManualClock();
let jobs: Awaited<ReturnType<typeof startTestExecutor>>;
beforeAll(async () => {
  // The loopback callback receiver is a private address: allowed for this file only.
  process.env.ALLOW_PRIVATE_URLS = "true";
  resetEnv();
  jobs = await startTestExecutor({ clock });
});
afterAll(() => {
  jobs.uninstall();
  delete process.env.ALLOW_PRIVATE_URLS;
  resetEnv();
});

const generate = (body: unknown, key: string) => call(POST, "/api/v1/generate", { body, key });
const getRequest = (id: string, key: string) => call(GET_REQUEST, `/api/v1/requests/${id}`, { params: { requestId: id }, key });
const stream = (id: string, key: string) => call(STREAM, `/api/v1/requests/${id}/stream`, { params: { requestId: id }, key });

describe("success", () => {
  test("sync: 200 GenerationResult with output, processing time and cost", async () => {
    const { user, key } = await fundedActor(100);
    const res = await generate({ model: FLUX, input: { prompt: "skill sync" }, sync: true }, key);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: expect.any(String),
      status: "completed",
      model: FLUX,
      output: expect.objectContaining({
        images: [expect.objectContaining({ url: expect.stringContaining("/files/r/"), width: 1024, height: 1024 })],
      }),
      processing_time_ms: expect.any(Number),
      cost_rub: 2.3593,
      served_by: { provider: "local", attempts: [{ provider: "local", outcome: "served" }] },
    });
    expect((await activityOf(res.body.id))[0]).toMatchObject({
      operation: "generate",
      status: "completed",
      provider: "local",
      attempts: [],
    });
    expect(await balanceOf(user.id)).toBe(1_000_000 - 23_593);
  });

  test("async: 202 GenerationQueued; poll shows queued then completed; the stream ends with `completed`", async () => {
    const { key } = await fundedActor(100);
    const res = await generate({ model: FLUX, input: { prompt: "skill async" } }, key);
    expect(res.status).toBe(202);
    const id = res.body.id;
    expect(res.body).toEqual({
      id,
      status: "queued",
      model: FLUX,
      poll_url: `http://localhost:3000/api/v1/requests/${id}`,
      stream_url: `http://localhost:3000/api/v1/requests/${id}/stream`,
    });
    expect((await getRequest(id, key)).body).toEqual({
      id,
      status: "queued",
      model: FLUX,
      cost_rub: 2.3593,
      served_by: { provider: "local", attempts: [{ provider: "local", outcome: expect.stringMatching(/^(pending|accepted)$/) }] },
    });
    const open = await openStream(STREAM, `/api/v1/requests/${id}/stream`, { key, params: { requestId: id } });
    await jobs.drain();
    expect((await getRequest(id, key)).body).toMatchObject({ id, status: "completed", output: { images: expect.any(Array) } });
    // Opened while it ran: the whole history, closing with the one final event; after the end, the final event alone.
    const events = await readSse(open);
    expect(events.filter((e) => e.event === "status").map((e) => e.data.status)).toEqual(["queued", "in_progress"]);
    expect(events.filter((e) => e.event === "completed")).toHaveLength(1);
    expect(events.at(-1)!.data).toMatchObject({ id, status: "completed", model: FLUX, output: { images: expect.any(Array) } });
    expect(await readSse((await stream(id, key)).response)).toEqual([events.at(-1)]);
  });

  test("a failed job: GET says failed with error; the stream ends with `failed`; refunded once", async () => {
    const { user, key } = await fundedActor(100);
    const id = (await generate({ model: FLUX, input: { prompt: "no [fail:generation]" } }, key)).body.id;
    const open = await openStream(STREAM, `/api/v1/requests/${id}/stream`, { key, params: { requestId: id } });
    await jobs.drain();
    expect((await getRequest(id, key)).body).toMatchObject({ id, status: "failed", error: expect.stringContaining("simulated failure") });
    const events = await readSse(open);
    expect(events.at(-1)).toMatchObject({ event: "failed", data: { id, status: "failed" } });
    expect((await ledgerOf(user.id)).map((t) => t.type)).toEqual(["generation_reserve", "generation_refund"]);
  });

  test("a stream with logs: status, log lines, then completed", async () => {
    const { key } = await fundedActor(100);
    const id = (await generate({ model: FLUX, input: { prompt: "logged [latency:200]", num_inference_steps: 2 } }, key)).body.id;
    const open = stream(id, key);
    await jobs.drain();
    await new Promise((r) => setTimeout(r, 250));
    await jobs.advance("1s");
    const events = await readSse((await open).response);
    expect(events[0]).toEqual({ event: "status", data: { id, status: "queued" } });
    expect(events.filter((e) => e.event === "log").length).toBeGreaterThan(0);
    expect(events.at(-1)!.event).toBe("completed");
  });
});

describe("callbacks", () => {
  test("webhook_url gets a Standard Webhooks–signed callback; a receiver failing twice gets the third delivery", async () => {
    const receiver = await startCallbackReceiver({ failFirst: 2 });
    try {
      const { user, key } = await fundedActor(100);
      const id = (await generate({ model: FLUX, input: { prompt: "call me back" }, webhook_url: receiver.url }, key)).body.id;
      await jobs.drain();
      expect(receiver.received).toHaveLength(1);
      await jobs.runUntilIdle({ withinMs: 60 * 60_000 });
      expect(receiver.received.map((r) => r.status)).toEqual([500, 500, 204]);
      const last = receiver.received[2]!;
      const secret = await webhookSecretOf(await getDb(), user.id);
      const verified = new Webhook(secret).verify(last.body, {
        "webhook-id": String(last.headers["webhook-id"]),
        "webhook-timestamp": String(last.headers["webhook-timestamp"]),
        "webhook-signature": String(last.headers["webhook-signature"]),
      });
      expect(verified).toMatchObject({
        request_id: id,
        model: FLUX,
        status: "completed",
        payload: { id, status: "completed" },
        created_at: expect.any(String),
      });
      // Every attempt carries the same webhook-id, so a receiver can dedupe.
      expect(new Set(receiver.received.map((r) => r.headers["webhook-id"])).size).toBe(1);
      const db = await getDb();
      const [delivery] = await db.select().from(webhookDeliveries).where(eq(webhookDeliveries.generationId, id));
      expect(delivery).toMatchObject({ status: "delivered", attempts: 3, lastStatusCode: 204 });
    } finally {
      await receiver.close();
    }
  });
});

describe("validation", () => {
  test("402 in the skill envelope, nothing queued", async () => {
    const { user, key } = await fundedActor(0);
    const res = await generate({ model: FLUX, input: { prompt: "broke" } }, key);
    expect(res.status).toBe(402);
    expect(res.body).toMatchObject({ code: "INSUFFICIENT_BALANCE", error: expect.any(String) });
    expect(await ledgerOf(user.id)).toEqual([]);
  });

  test("input failing the model's schema is 400 INVALID_PARAMS", async () => {
    const { key } = await fundedActor(100);
    const res = await generate({ model: FLUX, input: { num_images: 2 } }, key);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: "INVALID_PARAMS", details: { issues: [{ path: ["prompt"] }] } });
  });

  test("an unknown model is 400 INVALID_PARAMS naming `model` (the operation lists 400, 402, 429), nothing charged", async () => {
    const { user, key } = await fundedActor(100);
    const res = await generate({ model: "nope/nope", input: {} }, key);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      error: "model: Unknown model: nope/nope",
      code: "INVALID_PARAMS",
      details: { reason: "invalid_body", issues: [{ path: ["model"], message: "Unknown model: nope/nope" }] },
    });
    expect(await ledgerOf(user.id)).toEqual([]);
  });
});

describe("auth", () => {
  test("another user's request is 404 NOT_FOUND on GET and stream, like a missing one", async () => {
    const { key } = await fundedActor(100);
    const id = (await generate({ model: FLUX, input: { prompt: "private" } }, key)).body.id;
    await jobs.drain();
    const other = await createActor();
    for (const res of [await getRequest(id, other.key), await stream(id, other.key), await getRequest("missing", other.key)]) {
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ code: "NOT_FOUND" });
    }
    expect((await jobRow(id)).status).toBe("completed");
  });

  test("no key is 401 UNAUTHORIZED", async () => {
    const res = await call(POST, "/api/v1/generate", { body: { model: FLUX, input: {} } });
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ code: "UNAUTHORIZED" });
  });
});
