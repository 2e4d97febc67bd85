import { and, eq } from "drizzle-orm";
import sharp from "sharp";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { getDb } from "@/db/client";
import { assets, webhookDeliveries } from "@/db/schema";
import { resetEnv } from "@/lib/core/env";
import { ManualClock } from "@/lib/jobs/clock";
import { startTestExecutor } from "@/lib/jobs/testing";
import { webhookSecretOf } from "@/lib/account/webhook-secret";
import { activityOf, balanceOf, fundedActor, jobRow, ledgerOf } from "@/test/generation";
import { call } from "@/test/http";
import { startCallbackReceiver } from "@/test/servers/callback-receiver";
import { PUT as UPLOAD_PUT } from "../../../fal/storage/upload/[token]/route";
import { GET, POST, PUT } from "./route";

/**
 * /api/fal/proxy as @fal-ai/client calls it with `proxyUrl: {url, when: "always"}`: every request
 * to this one URL, the fal URL in x-fal-target-url, `Authorization: Key <key>` (request shapes as
 * observed in notes/fal.md §7). The stock client itself runs against the build in
 * e2e/fal-client.spec.ts.
 */
const FLUX = "fal-ai/flux/dev";
const FLUX_SQUARE_HD = 23_593;
const QUEUE = "https://queue.fal.run";
const clock = new ManualClock();
let jobs: Awaited<ReturnType<typeof startTestExecutor>>;

beforeAll(async () => {
  // The loopback callback receiver is a private address; status polls answer at once here.
  process.env.ALLOW_PRIVATE_URLS = "true";
  process.env.FAL_STATUS_HOLD_MS = "0";
  resetEnv();
  jobs = await startTestExecutor({ clock });
});
afterAll(() => {
  jobs.uninstall();
  delete process.env.ALLOW_PRIVATE_URLS;
  delete process.env.FAL_STATUS_HOLD_MS;
  resetEnv();
});

const HANDLERS = { GET, POST, PUT } as const;
type Method = keyof typeof HANDLERS;

/** One call through the proxy, with the headers the stock client sends. */
function proxy(method: Method, target: string, o: { key?: string; body?: unknown; headers?: Record<string, string> } = {}) {
  return call(HANDLERS[method], "/api/fal/proxy", {
    method,
    body: o.body,
    headers: {
      "x-fal-target-url": target,
      accept: "application/json",
      "content-type": "application/json",
      "user-agent": "@fal-ai/client/1.10.1",
      ...(o.key ? { authorization: `Key ${o.key}` } : {}),
      ...o.headers,
    },
  });
}

const submit = (key: string, input: unknown, query = "") =>
  proxy("POST", `${QUEUE}/${FLUX}${query}`, { key, body: input, headers: { "x-fal-queue-priority": "normal" } });
const status = (key: string, id: string, logs = false) =>
  proxy("GET", `${QUEUE}/fal-ai/flux/requests/${id}/status?logs=${logs ? 1 : 0}`, { key });
const result = (key: string, id: string) => proxy("GET", `${QUEUE}/fal-ai/flux/requests/${id}`, { key });
const urlsOf = (id: string) => ({
  response_url: `${QUEUE}/fal-ai/flux/requests/${id}`,
  status_url: `${QUEUE}/fal-ai/flux/requests/${id}/status`,
  cancel_url: `${QUEUE}/fal-ai/flux/requests/${id}/cancel`,
});

describe("success", () => {
  test("queue: submit → IN_QUEUE with fal's URLs → 400 result not ready → COMPLETED with logs and metrics → the output, billed once", async () => {
    const { user, key } = await fundedActor(100);
    const res = await submit(key, { prompt: "a lighthouse", seed: 5 });
    expect(res.status).toBe(200);
    const id = res.body.request_id;
    expect(res.headers.get("x-fal-request-id")).toBe(id);
    expect(res.body).toEqual({ status: "IN_QUEUE", request_id: id, gateway_request_id: id, queue_position: 0, ...urlsOf(id) });
    expect(await jobRow(id)).toMatchObject({ surface: "fal", mode: "queue", operation: "queue", status: "queued" });

    const queued = await status(key, id);
    expect(queued.status).toBe(202);
    expect(queued.body).toEqual({ status: "IN_QUEUE", request_id: id, queue_position: expect.any(Number), ...urlsOf(id) });
    const early = await result(key, id);
    expect(early.status).toBe(400);
    expect(early.body).toMatchObject({ detail: "Request is still in progress", error_type: "request_in_progress", request_id: id });
    expect(early.headers.get("x-fal-request-id")).toBe(id);

    await jobs.drain();
    const done = await status(key, id);
    expect(done.status).toBe(200);
    expect(done.body).toEqual({
      status: "COMPLETED",
      request_id: id,
      logs: null,
      metrics: { inference_time: expect.any(Number) },
      ...urlsOf(id),
    });
    const withLogs = await status(key, id, true);
    expect(withLogs.body.logs.length).toBeGreaterThan(0);
    expect(withLogs.body.logs[0]).toEqual({ message: expect.any(String), level: "INFO", source: "USER", timestamp: expect.any(String) });

    const out = await result(key, id);
    expect(out.status).toBe(200);
    expect(out.headers.get("x-fal-request-id")).toBe(id);
    expect(out.body).toMatchObject({ seed: 5, images: [{ url: expect.stringContaining("/files/r/"), width: 1024, height: 1024 }] });
    expect(out.body).not.toHaveProperty("request_id");
    expect(await balanceOf(user.id)).toBe(1_000_000 - FLUX_SQUARE_HD);
    expect(await ledgerOf(user.id)).toEqual([{ type: "generation_reserve", amount: -FLUX_SQUARE_HD, generationId: id }]);
    expect((await activityOf(id))[0]).toMatchObject({ operation: "queue", status: "completed", credits: FLUX_SQUARE_HD });
  });

  test("run: fal.run answers the output with x-fal-request-id; `Authorization: Key` and the sync engine", async () => {
    const { user, key } = await fundedActor(100);
    const res = await proxy("POST", `https://fal.run/${FLUX}`, { key, body: { prompt: "sync harbour", seed: 9 } });
    expect(res.status).toBe(200);
    const id = res.headers.get("x-fal-request-id")!;
    expect(res.body).toMatchObject({ seed: 9, images: [{ width: 1024, height: 1024 }] });
    expect(await jobRow(id)).toMatchObject({ surface: "fal", mode: "sync", operation: "run", status: "completed", userId: user.id });
    expect(await ledgerOf(user.id)).toEqual([{ type: "generation_reserve", amount: -FLUX_SQUARE_HD, generationId: id }]);
  });

  test("stream: fal.run/{model}/stream answers SSE with the output as its one bare data event", async () => {
    const { user, key } = await fundedActor(100);
    const res = await proxy("POST", `https://fal.run/${FLUX}/stream`, {
      key,
      body: { prompt: "streamed", seed: 2 },
      headers: { accept: "application/json, text/event-stream" },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/event-stream/);
    const blocks = res.text.split("\n\n").filter((b) => b.startsWith("data: "));
    expect(blocks).toHaveLength(1);
    expect(res.text).not.toMatch(/^(retry|event|id):/m);
    expect(JSON.parse(blocks[0]!.slice(6))).toMatchObject({ seed: 2, images: [{ width: 1024 }] });
    const id = res.headers.get("x-fal-request-id")!;
    expect(await jobRow(id)).toMatchObject({ surface: "fal", status: "completed" });
    expect(await balanceOf(user.id)).toBe(1_000_000 - FLUX_SQUARE_HD);
  });

  test("status stream: bare data events ending with COMPLETED, then closed", async () => {
    const { key } = await fundedActor(100);
    const id = (await submit(key, { prompt: "watched" })).body.request_id;
    await jobs.drain();
    const res = await proxy("GET", `${QUEUE}/fal-ai/flux/requests/${id}/status/stream?logs=0`, {
      key,
      headers: { accept: "application/json, text/event-stream" },
    });
    expect(res.headers.get("content-type")).toMatch(/^text\/event-stream/);
    const events = res.text
      .split("\n\n")
      .filter((b) => b.startsWith("data: "))
      .map((b) => JSON.parse(b.slice(6)));
    expect(events.at(-1)).toMatchObject({ status: "COMPLETED", request_id: id, ...urlsOf(id) });
  });

  test("status stream of a queued job follows it to COMPLETED (woken by its change notices), then closes", async () => {
    const { key } = await fundedActor(100);
    const id = (await submit(key, { prompt: "followed live" })).body.request_id;
    const streamed = proxy("GET", `${QUEUE}/fal-ai/flux/requests/${id}/status/stream?logs=1`, {
      key,
      headers: { accept: "application/json, text/event-stream" },
    });
    let done = false;
    void streamed.finally(() => (done = true));
    while (!done) {
      await jobs.drain();
      await new Promise((r) => setTimeout(r, 50));
    }
    const events = (await streamed).text
      .split("\n\n")
      .filter((b) => b.startsWith("data: "))
      .map((b) => JSON.parse(b.slice(6)) as { status: string; logs?: unknown[] });
    expect(events[0]!.status).toBe("IN_QUEUE");
    expect(events.at(-1)).toMatchObject({ status: "COMPLETED", logs: expect.any(Array) });
    expect(events.filter((e) => e.status === "COMPLETED")).toHaveLength(1);
  });

  test("cancel: a queued request → 200 {status: OK}, refunded; again → 409 conflict ALREADY_COMPLETED", async () => {
    const { user, key } = await fundedActor(100);
    const id = (await submit(key, { prompt: "never mind" })).body.request_id;
    const res = await proxy("PUT", `${QUEUE}/fal-ai/flux/requests/${id}/cancel`, { key });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: "OK" });
    expect(await balanceOf(user.id)).toBe(1_000_000);
    const again = await proxy("PUT", `${QUEUE}/fal-ai/flux/requests/${id}/cancel`, { key });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ success: false, error: "conflict", status: "ALREADY_COMPLETED", detail: expect.any(String) });
    const after = await status(key, id);
    expect(after.body).toMatchObject({ status: "COMPLETED", error: "Request was cancelled", error_type: "cancelled" });
    expect((await result(key, id)).status).toBe(400);
  });

  test("a model failure: run is fal's 422 `detail`; a queued one is COMPLETED with its error and its result 422; refunded", async () => {
    const { user, key } = await fundedActor(100);
    const res = await proxy("POST", `https://fal.run/${FLUX}`, { key, body: { prompt: "break [fail:generation]" } });
    expect(res.status).toBe(422);
    const id = res.headers.get("x-fal-request-id")!;
    expect(res.body).toMatchObject({
      detail: [{ loc: ["body"], msg: expect.any(String), type: "generation_failed" }],
      error_type: "generation_failed",
      request_id: id,
    });
    const queued = (await submit(key, { prompt: "break later [fail:generation]" })).body.request_id;
    await jobs.drain();
    expect((await status(key, queued)).body).toMatchObject({
      status: "COMPLETED",
      error: expect.any(String),
      error_type: "generation_failed",
    });
    const failed = await result(key, queued);
    expect(failed.status).toBe(422);
    expect(failed.body.detail[0]).toMatchObject({ loc: ["body"], type: "generation_failed" });
    expect(await balanceOf(user.id)).toBe(1_000_000);
  });

  test("fal_webhook: fal's body ({request_id, gateway_request_id, status: OK, payload}), signed per Standard Webhooks", async () => {
    const receiver = await startCallbackReceiver();
    try {
      const { user, key } = await fundedActor(100);
      const id = (await submit(key, { prompt: "call back", seed: 4 }, `?fal_webhook=${encodeURIComponent(receiver.url)}`)).body.request_id;
      await jobs.drain();
      await jobs.runUntilIdle({ withinMs: 60_000 });
      expect(receiver.received).toHaveLength(1);
      const got = receiver.received[0]!;
      const secret = await webhookSecretOf(await getDb(), user.id);
      const verified = new Webhook(secret).verify(got.body, {
        "webhook-id": String(got.headers["webhook-id"]),
        "webhook-timestamp": String(got.headers["webhook-timestamp"]),
        "webhook-signature": String(got.headers["webhook-signature"]),
      }) as Record<string, unknown>;
      expect(verified).toEqual({
        request_id: id,
        gateway_request_id: id,
        status: "OK",
        payload: expect.objectContaining({ seed: 4, images: expect.any(Array) }),
      });
      const [delivery] = await (await getDb()).select().from(webhookDeliveries).where(eq(webhookDeliveries.generationId, id));
      expect(delivery).toMatchObject({ status: "delivered", url: receiver.url });
    } finally {
      await receiver.close();
    }
  });

  test("storage.upload: initiate → PUT to upload_url (no key) → the user's upload at file_url, usable as a model input", async () => {
    const { user, key } = await fundedActor(100);
    const init = await proxy("POST", "https://rest.fal.ai/storage/upload/initiate?storage_type=fal-cdn-v3", {
      key,
      body: { content_type: "image/png", file_name: "in.png" },
    });
    expect(init.status).toBe(200);
    expect(init.body).toEqual({
      upload_url: expect.stringMatching(/^http:\/\/localhost:3000\/fal\/storage\/upload\//),
      file_url: expect.stringMatching(/^http:\/\/localhost:3000\/files\/u\/.+\.png$/),
    });
    const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: "#3366aa" } })
      .png()
      .toBuffer();
    const token = new URL(init.body.upload_url).pathname.split("/").pop()!;
    const put = await call(UPLOAD_PUT, new URL(init.body.upload_url).pathname, {
      method: "PUT",
      body: new Uint8Array(png),
      headers: { "content-type": "image/png" },
      params: { token },
    });
    expect(put.status).toBe(200);
    const [asset] = await (
      await getDb()
    )
      .select()
      .from(assets)
      .where(and(eq(assets.userId, user.id), eq(assets.publicUrl, init.body.file_url)));
    expect(asset).toMatchObject({ kind: "upload", contentType: "image/png", status: "stored" });
    // One URL, one file.
    const twice = await call(UPLOAD_PUT, new URL(init.body.upload_url).pathname, {
      method: "PUT",
      body: new Uint8Array(png),
      headers: { "content-type": "image/png" },
      params: { token },
    });
    expect(twice.status).toBe(409);
    const run = await proxy("POST", "https://fal.run/fal-ai/esrgan", { key, body: { image_url: init.body.file_url } });
    expect(run.status).toBe(200);
    expect((await jobRow(run.headers.get("x-fal-request-id")!)).input).toMatchObject({ image_url: init.body.file_url });
  });
});

describe("validation", () => {
  test.each([
    ["no target", undefined],
    ["a host that is not fal's", "https://example.com/fal-ai/flux/dev"],
    ["a look-alike host", "https://queue.fal.run.evil.example/fal-ai/flux/dev"],
    ["plain http", "http://queue.fal.run/fal-ai/flux/dev"],
    ["another port", "https://fal.run:8443/fal-ai/flux/dev"],
    ["credentials in the URL", "https://user:pw@fal.run/fal-ai/flux/dev"],
    ["not a URL", "fal-ai/flux/dev"],
  ])("%s → 400 in the envelope, nothing fetched", async (_, target) => {
    const { key } = await fundedActor(100);
    const res = await call(POST, "/api/fal/proxy", {
      method: "POST",
      body: { prompt: "x" },
      headers: { authorization: `Key ${key}`, ...(target ? { "x-fal-target-url": target } : {}) },
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      success: false,
      error: "invalid_params",
      message: expect.stringContaining("x-fal-target-url"),
      detail: expect.any(String),
    });
    expect(res.headers.get("x-request-id")).toBeTruthy();
  });

  test("fal URLs the gateway does not serve → 404; a wrong method → 405", async () => {
    const { key } = await fundedActor(100);
    expect((await proxy("POST", "https://rest.fal.ai/tokens/", { key, body: {} })).status).toBe(404);
    expect((await proxy("POST", "https://rest.fal.ai/storage/upload/initiate-multipart", { key, body: {} })).status).toBe(404);
    const wrong = await proxy("GET", `https://fal.run/${FLUX}`, { key });
    expect(wrong.status).toBe(405);
    expect(wrong.body).toMatchObject({ error: "method_not_allowed", detail: expect.any(String) });
  });

  test("invalid input → 422 with fal's detail [{loc, msg, type}], nothing charged", async () => {
    const { user, key } = await fundedActor(100);
    const res = await submit(key, { prompt: 42 });
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({
      success: false,
      error: "invalid_body",
      detail: [{ loc: ["body", "prompt"], msg: expect.any(String), type: "value_error" }],
    });
    expect(res.headers.get("x-fal-error-type")).toBe("invalid_body");
    expect(await balanceOf(user.id)).toBe(1_000_000);
  });

  test("a fal_webhook the gateway would never deliver to → 422 naming it, nothing queued", async () => {
    const { user, key } = await fundedActor(100);
    const res = await submit(key, { prompt: "x" }, `?fal_webhook=${encodeURIComponent("ftp://example.com/hook")}`);
    expect(res.status).toBe(422);
    expect(res.body.detail).toEqual([{ loc: ["query", "fal_webhook"], msg: expect.any(String), type: "value_error" }]);
    expect(await balanceOf(user.id)).toBe(1_000_000);
  });

  test("402 with fal's detail when the balance is short", async () => {
    const { key } = await fundedActor(0);
    const res = await proxy("POST", `https://fal.run/${FLUX}`, { key, body: { prompt: "x" } });
    expect(res.status).toBe(402);
    expect(res.body).toMatchObject({
      error: "insufficient_balance",
      error_type: "insufficient_balance",
      detail: expect.stringContaining(""),
    });
  });

  test("an upload of bytes other than the initiated type → 415; a forged token → 404", async () => {
    const { key } = await fundedActor(100);
    const init = await proxy("POST", "https://rest.fal.ai/storage/upload/initiate", {
      key,
      body: { content_type: "image/jpeg", file_name: "a.jpg" },
    });
    const png = await sharp({ create: { width: 4, height: 4, channels: 3, background: "#000" } })
      .png()
      .toBuffer();
    const path = new URL(init.body.upload_url).pathname;
    const token = path.split("/").pop()!;
    expect((await call(UPLOAD_PUT, path, { method: "PUT", body: new Uint8Array(png), params: { token } })).status).toBe(415);
    const forged = `${token.split(".")[0]}.${"A".repeat(43)}`;
    expect((await call(UPLOAD_PUT, path, { method: "PUT", body: new Uint8Array(png), params: { token: forged } })).status).toBe(404);
    expect((await proxy("POST", "https://rest.fal.ai/storage/upload/initiate", { key, body: { content_type: "text/html" } })).status).toBe(
      415,
    );
  });
});

describe("auth", () => {
  test("no key → 401 with fal's detail; a Bearer key works too", async () => {
    const res = await proxy("POST", `https://fal.run/${FLUX}`, { body: { prompt: "x" } });
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ error: "unauthorized", detail: expect.any(String), error_type: "unauthorized" });
    const { key } = await fundedActor(100);
    expect(
      (await proxy("POST", `https://fal.run/${FLUX}`, { body: { prompt: "x" }, headers: { authorization: `Bearer ${key}` } })).status,
    ).toBe(200);
  });

  test("another user's request is 404, as a missing one", async () => {
    const owner = await fundedActor(100);
    const other = await fundedActor(100);
    const id = (await submit(owner.key, { prompt: "mine" })).body.request_id;
    for (const res of [
      await status(other.key, id),
      await result(other.key, id),
      await proxy("PUT", `${QUEUE}/fal-ai/flux/requests/${id}/cancel`, { key: other.key }),
    ]) {
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ error: "not_found", detail: "Request not found" });
    }
  });
});
