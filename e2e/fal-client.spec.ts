import { ApiError, createFalClient, ValidationError, type FalClient } from "@fal-ai/client";
import { expect, test } from "@playwright/test";
import sharp from "sharp";
import { Webhook } from "standardwebhooks";
import { baseURL } from "../playwright.config";
import { apiUser, callbackReceiver, expectLedgerConsistent, jobOf, json, pollUntil, type ApiUser } from "./field-helpers";

/**
 * fal's own JavaScript client, unmodified (@fal-ai/client 1.10.1), pointed at the gateway with the
 * one line docs/fal.md gives: `proxyUrl: {url: "<gateway>/api/fal/proxy", when: "always"}` and the
 * gateway key as `credentials`. Every call below is the stock client's, against the production
 * build, on a provider that takes time (`[latency:N]`); the user's ledger is checked after each test.
 */
const MODEL = "fal-ai/flux/schnell";
const SMALL = { image_size: { width: 256, height: 256 } };
const FUNDS = 1_000_000;

type Images = { images: { url: string; width: number; height: number }[] };

let user: ApiUser;
let fal: FalClient;
test.beforeEach(() => {
  user = apiUser(100);
  // The one-line change: fal's client, the gateway's key and proxy URL.
  fal = createFalClient({ credentials: user.apiKey, proxyUrl: { url: `${baseURL}/api/fal/proxy`, when: "always" } });
});
test.afterEach(async () => {
  await expectLedgerConsistent(user.userId);
});

const balance = async (request: Parameters<typeof json>[0]) => (await json(request, "GET", "/me/balance", user)).body.balance as number;
/** The ledger check, after each call of the client (a job still running holds its reserve). */
const ledgerHolds = () => expectLedgerConsistent(user.userId);

test.describe("run and subscribe", () => {
  test("fal.subscribe (polling) follows IN_QUEUE → IN_PROGRESS → COMPLETED with logs and returns the output, charged once", async ({
    request,
  }) => {
    const updates: { status: string; logs?: unknown[] }[] = [];
    const result = await fal.subscribe(MODEL, {
      input: { prompt: "a lighthouse [latency:2000]", ...SMALL },
      logs: true,
      onQueueUpdate: (u) => updates.push(u as { status: string; logs?: unknown[] }),
    });
    await ledgerHolds();
    expect(result.requestId).toMatch(/^[0-9a-f-]{36}$/);
    const data = result.data as Images;
    expect(data.images[0]).toMatchObject({ width: 256, height: 256, url: expect.stringContaining("/files/r/") });
    expect((await request.get(data.images[0]!.url)).status()).toBe(200);
    expect(updates.at(-1)!.status).toBe("COMPLETED");
    expect(updates.map((u) => u.status).every((s) => ["IN_QUEUE", "IN_PROGRESS", "COMPLETED"].includes(s))).toBe(true);
    // A held poll answers at each change (status, a log line) or after 10 s, not every 500 ms.
    console.log(`fal.subscribe polling: ${updates.length} status answers for a 2 s job`);
    expect((await jobOf(result.requestId))?.status).toBe("completed");
    expect(await balance(request)).toBeLessThan(FUNDS);
  });

  test("fal.subscribe (streaming) returns the output once the status stream closes", async () => {
    const statuses: string[] = [];
    const result = await fal.subscribe(MODEL, {
      input: { prompt: "an orchard [latency:1500]", ...SMALL },
      mode: "streaming",
      onQueueUpdate: (u) => statuses.push(u.status),
    });
    await ledgerHolds();
    expect((result.data as Images).images[0]).toMatchObject({ width: 256 });
    expect(statuses.at(-1)).toBe("COMPLETED");
    expect((await jobOf(result.requestId))?.status).toBe("completed");
  });

  test("fal.run waits for the output; fal.stream yields it as its event and done()", async () => {
    const run = await fal.run(MODEL, { input: { prompt: "a harbour [latency:1500]", ...SMALL } });
    await ledgerHolds();
    expect(run.requestId).toMatch(/^[0-9a-f-]{36}$/);
    expect((run.data as Images).images[0]).toMatchObject({ width: 256 });

    const stream = await fal.stream(MODEL, { input: { prompt: "a river [latency:1000]", ...SMALL } });
    const events: unknown[] = [];
    for await (const event of stream) events.push(event);
    const done = (await stream.done()) as Images;
    await ledgerHolds();
    expect(done.images[0]).toMatchObject({ width: 256 });
    expect(events.at(-1)).toEqual(done);
  });

  test("a model failure is fal's ValidationError (422 with detail), refunded", async ({ request }) => {
    const failure = await fal
      .run(MODEL, { input: { prompt: "broken [latency:500] [fail:generation]", ...SMALL } })
      .catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(ValidationError);
    const err = failure as ValidationError;
    expect(err.status).toBe(422);
    expect(err.fieldErrors[0]).toMatchObject({ loc: ["body"], type: "generation_failed" });
    expect(err.requestId).toMatch(/^[0-9a-f-]{36}$/);
    expect((await jobOf(err.requestId))?.status).toBe("failed");
    await ledgerHolds();

    const queued = await fal.subscribe(MODEL, { input: { prompt: "broken later [fail:generation]", ...SMALL } }).catch((e: unknown) => e);
    expect(queued).toBeInstanceOf(ValidationError);
    expect(await balance(request)).toBe(FUNDS);
  });

  test("invalid input is a ValidationError naming the field; nothing charged", async ({ request }) => {
    const err = (await fal.run(MODEL, { input: { prompt: 42 } as never }).catch((e: unknown) => e)) as ValidationError;
    expect(err).toBeInstanceOf(ValidationError);
    expect(err.getFieldErrors("prompt")).toHaveLength(1);
    expect(await balance(request)).toBe(FUNDS);
  });
});

test.describe("queue", () => {
  test("submit (webhookUrl, priority, hint) → status with logs → streamStatus → result; the webhook comes in fal's body, signed", async ({
    request,
  }) => {
    const receiver = await callbackReceiver();
    try {
      const submitted = await fal.queue.submit(MODEL, {
        input: { prompt: "queued [latency:4000]", ...SMALL },
        webhookUrl: receiver.url,
        priority: "low",
        hint: "any",
      });
      const id = submitted.request_id;
      // The result of an unfinished request fails as fal's does (400 detail), not with the status body.
      // Asked first, while the 4 s run cannot have ended: after a ledger check it could have.
      const notReady = await fal.queue.result(MODEL, { requestId: id }).catch((e: unknown) => e);
      expect(notReady).toBeInstanceOf(ApiError);
      expect((notReady as ApiError<unknown>).status).toBe(400);
      await ledgerHolds();
      expect(submitted).toMatchObject({
        status: "IN_QUEUE",
        request_id: id,
        queue_position: expect.any(Number),
        status_url: expect.stringContaining(`https://queue.fal.run/fal-ai/flux/requests/${id}/status`),
      });
      const early = await fal.queue.status(MODEL, { requestId: id, logs: true });
      await ledgerHolds();
      expect(["IN_QUEUE", "IN_PROGRESS", "COMPLETED"]).toContain(early.status);
      const stream = await fal.queue.streamStatus(MODEL, { requestId: id, logs: true });
      const seen: string[] = [];
      stream.on("data", (d: { status: string }) => seen.push(d.status));
      const last = (await stream.done()) as { status: string; logs: unknown[]; metrics: { inference_time: number } };
      expect(last).toMatchObject({ status: "COMPLETED", metrics: { inference_time: expect.any(Number) } });
      expect(last.logs.length).toBeGreaterThan(0);
      await ledgerHolds();
      const status = await fal.queue.status(MODEL, { requestId: id, logs: false });
      expect(status.status).toBe("COMPLETED");
      const result = await fal.queue.result(MODEL, { requestId: id });
      await ledgerHolds();
      expect(result.requestId).toBe(id);
      expect((result.data as Images).images[0]).toMatchObject({ width: 256 });

      await pollUntil(
        async () => receiver.received.length,
        (n) => n > 0,
        { everyMs: 200, withinMs: 30_000 },
      );
      const { secret } = (await json(request, "GET", "/me/webhook-secret", user)).body;
      const delivery = receiver.received[0]!;
      const headers = Object.fromEntries(Object.entries(delivery.headers).map(([k, v]) => [k, String(v)]));
      const body = new Webhook(secret).verify(delivery.body, headers) as Record<string, unknown>;
      expect(body).toMatchObject({ request_id: id, gateway_request_id: id, status: "OK", payload: { images: [{ width: 256 }] } });
    } finally {
      await receiver.close();
    }
  });

  test("cancel while queued: the subscribe-less request is cancelled and refunded", async ({ request }) => {
    const { request_id: id } = await fal.queue.submit(MODEL, { input: { prompt: "never mind [latency:15000]", ...SMALL } });
    await ledgerHolds();
    await fal.queue.cancel(MODEL, { requestId: id });
    await ledgerHolds();
    expect((await jobOf(id))?.status).toBe("cancelled");
    const status = await fal.queue.status(MODEL, { requestId: id });
    expect(status).toMatchObject({ status: "COMPLETED", error_type: "cancelled" });
    expect(await balance(request)).toBe(FUNDS);
  });
});

test.describe("storage", () => {
  test("storage.upload lands in the user's uploads; its URL is a model input, and a Blob in subscribe's input is uploaded on the way", async ({
    request,
  }) => {
    const png = await sharp({ create: { width: 32, height: 32, channels: 3, background: "#2266cc" } })
      .png()
      .toBuffer();
    const url = await fal.storage.upload(new Blob([new Uint8Array(png)], { type: "image/png" }));
    await ledgerHolds();
    expect(url).toMatch(new RegExp(`^${baseURL}/files/u/.+\\.png$`));
    const file = await request.get(url);
    expect(file.status()).toBe(200);
    expect(file.headers()["content-type"]).toBe("image/png");
    const assets = (await json(request, "GET", "/me/assets?kind=upload", user)).body;
    expect(JSON.stringify(assets)).toContain(url);

    const upscaled = await fal.run("fal-ai/esrgan", { input: { image_url: url } });
    await ledgerHolds();
    expect(upscaled.requestId).toMatch(/^[0-9a-f-]{36}$/);
    const viaBlob = await fal.subscribe("fal-ai/esrgan", { input: { image_url: new Blob([new Uint8Array(png)], { type: "image/png" }) } });
    expect((await jobOf(viaBlob.requestId))?.status).toBe("completed");
  });
});

test.describe("the proxy is not an open proxy", () => {
  test("a target outside fal's hosts is 400 in the envelope; a fal path the gateway does not serve is 404", async ({ request }) => {
    for (const target of [
      "https://example.com/x",
      "http://169.254.169.254/latest/meta-data",
      "https://fal.run.example.com/fal-ai/flux/dev",
    ]) {
      const res = await request.post("/api/fal/proxy", {
        headers: { authorization: `Key ${user.apiKey}`, "x-fal-target-url": target },
        data: {},
      });
      expect(res.status()).toBe(400);
      expect(await res.json()).toMatchObject({ success: false, error: "invalid_params" });
    }
    const tokens = await request.post("/api/fal/proxy", {
      headers: { authorization: `Key ${user.apiKey}`, "x-fal-target-url": "https://rest.fal.ai/tokens/" },
      data: {},
    });
    expect(tokens.status()).toBe(404);
  });
});
