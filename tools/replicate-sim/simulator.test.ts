import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import { resetEnv } from "@/lib/core/env";
import { DomainError } from "@/lib/core/errors";
import { ModelFailedError, ProviderRejectedError, ProviderUnavailableError } from "@/lib/provider/errors";
import { ReplicateProvider } from "@/lib/provider/replicate/provider";
import { resetReplicateWebhookSecret } from "@/lib/provider/replicate/secret";
import { resetProviders } from "@/lib/provider/registry";
import { standardWebhookSigner, verifyProviderWebhook } from "@/lib/provider/webhook-verify";
import type { ProviderRequestRef } from "@/lib/provider/types";
import { withEnv } from "@/test/env";
import { ReplicateSimulator } from "./simulator";

/**
 * The real Replicate client (lib/provider/replicate) against the simulator over loopback HTTP:
 * no mocks on either side. Latencies come from prompt markers; tests wait for states, never time.
 */
const TOKEN = "r8_test_token";
const MODEL = "black-forest-labs/flux-schnell";
let sim: ReplicateSimulator;
let sleeps: number[] = [];
const deliveries: { url: string; headers: Record<string, string>; body: string }[] = [];

beforeAll(async () => {
  process.env.ALLOW_PRIVATE_URLS = "true";
  resetEnv();
  sim = await new ReplicateSimulator({
    token: TOKEN,
    webhookRetryBaseMs: 10,
    deliver: async (url, init) => {
      deliveries.push({ url, headers: init.headers, body: init.body });
      return { status: 200 };
    },
  }).listen();
});
afterAll(async () => {
  delete process.env.ALLOW_PRIVATE_URLS;
  resetEnv();
  await sim.close();
});
afterEach(() => {
  sim.calls = [];
  sleeps = [];
});

const client = (options: ConstructorParameters<typeof ReplicateProvider>[0] = {}) =>
  new ReplicateProvider({
    token: TOKEN,
    apiUrl: sim.apiUrl,
    waitSeconds: 1,
    cancelAfter: null,
    timeoutMs: 5_000,
    baseDelayMs: 1,
    maxDelayMs: 2_000,
    sleep: async (ms) => void sleeps.push(ms),
    ...options,
  });

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));
async function until<T>(read: () => Promise<T>, done: (v: T) => boolean): Promise<T> {
  for (;;) {
    const v = await read();
    if (done(v)) return v;
    await pause(25);
  }
}
async function caught(p: Promise<unknown>): Promise<any> {
  try {
    await p;
  } catch (err) {
    return err;
  }
  throw new Error("expected a rejection");
}

describe("a queued prediction", () => {
  test("create on an official model → starting (queued) → processing (running, logs) → succeeded; images mapped with their size, type and bytes", async () => {
    const p = client();
    const { providerRequestId, queuePosition } = await p.submit({
      endpointId: MODEL,
      input: { prompt: "a red fox [latency:600]", image_size: "square", num_images: 2, seed: 7 },
      requestId: "g1",
    });
    expect(queuePosition).toBeNull();
    const create = sim.callsTo("create")[0]!;
    expect(create.path).toBe(`/v1/models/${MODEL}/predictions`);
    expect(create.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(create.headers.prefer).toBeUndefined();
    const ref: ProviderRequestRef = { endpointId: MODEL, providerRequestId };
    expect(await p.status(ref, { logs: true })).toEqual({ status: "queued", queuePosition: null, logs: [] });
    const running = await until(
      () => p.status(ref, { logs: true }),
      (s) => s.status !== "queued",
    );
    if (running.status === "running") expect(running.logs[0]).toMatchObject({ message: "Using seed: 7", level: "info" });
    const done = await until(
      () => p.status(ref),
      (s) => s.status !== "queued" && s.status !== "running",
    );
    expect(done).toMatchObject({ status: "succeeded", error: null, inferenceTimeMs: expect.any(Number) });
    const result = await p.result(ref);
    expect(result.ok).toBe(true);
    const output = (result as { output: any }).output;
    expect(output.seed).toBe(7);
    expect(output.images).toHaveLength(2);
    for (const image of output.images) {
      expect(image).toEqual({
        url: expect.stringMatching(new RegExp(`^${sim.base}/sim/image/`)),
        content_type: expect.stringMatching(/^image\/(png|jpeg)$/),
        width: 512,
        height: 512,
        file_size: expect.any(Number),
      });
      const bytes = await fetch(image.url).then((r) => r.arrayBuffer());
      expect(bytes.byteLength).toBe(image.file_size);
    }
  });

  test("a prediction not ended yet: result is a retryable not_ready", async () => {
    const p = client();
    const { providerRequestId } = await p.submit({ endpointId: MODEL, input: { prompt: "slow [latency:5000]" }, requestId: "g" });
    const err = await caught(p.result({ endpointId: MODEL, providerRequestId }));
    expect(err).toBeInstanceOf(ProviderUnavailableError);
    expect(err.reason).toBe("not_ready");
  });

  test("create on a version goes to /v1/predictions with the version; audio and video map to `audio` and `video`", async () => {
    const version = "a".repeat(64);
    const p = client();
    const { providerRequestId } = await p.submit({
      endpointId: `someone/tts:${version}`,
      input: { text: "hello there", prompt: "[latency:50]" },
      requestId: "g2",
    });
    const create = sim.callsTo("create")[0]!;
    expect(create.path).toBe("/v1/predictions");
    expect(JSON.parse(create.body)).toMatchObject({ version, input: { text: "hello there" } });
    const ref = { endpointId: `someone/tts:${version}`, providerRequestId };
    await until(
      () => p.status(ref),
      (s) => s.status === "succeeded",
    );
    const result = (await p.result(ref)) as { ok: true; output: any };
    // A version id says nothing of the kind: the simulator renders an image, read back by its bytes.
    expect(result.output.images[0]).toMatchObject({ content_type: expect.stringMatching(/^image\//), width: expect.any(Number) });
  });

  test("fal's endpoint ids are not Replicate's: refused before any call", async () => {
    const err = await caught(client().submit({ endpointId: "fal-ai/flux/dev", input: { prompt: "x" }, requestId: "g" }));
    expect(err).toBeInstanceOf(ProviderRejectedError);
    expect(sim.callsTo("create")).toHaveLength(0);
  });
});

describe("inputs", () => {
  test("URLs and small data URLs go as they are; a data URL over 256 KB is uploaded to the Files API and replaced by its URL", async () => {
    const small = `data:image/png;base64,${Buffer.alloc(1024, 1).toString("base64")}`;
    const big = Buffer.alloc(300 * 1024, 7);
    const p = client();
    await p.submit({
      endpointId: MODEL,
      input: {
        prompt: "[latency:10]",
        image_url: "https://gateway.example/files/u/a.png",
        mask: small,
        extra: { images: [`data:image/webp;base64,${big.toString("base64")}`] },
      },
      requestId: "g",
    });
    const [upload] = sim.callsTo("file");
    expect(upload).toMatchObject({ method: "POST", path: "/v1/files" });
    expect(upload!.headers.authorization).toBe(`Bearer ${TOKEN}`);
    const sent = JSON.parse(sim.callsTo("create")[0]!.body).input;
    expect(sent.image_url).toBe("https://gateway.example/files/u/a.png");
    expect(sent.mask).toBe(small);
    const fileUrl: string = sent.extra.images[0];
    expect(fileUrl).toMatch(new RegExp(`^${sim.apiUrl}/files/`));
    const stored = sim.uploaded(fileUrl.split("/").pop()!)!;
    expect(stored.contentType).toBe("image/webp");
    expect(stored.bytes.equals(big)).toBe(true);
  });
});

describe("Prefer: wait", () => {
  test("a short job ends inside the create: the result needs no further call", async () => {
    const p = client({ waitSeconds: 5 });
    const { providerRequestId } = await p.submit({
      endpointId: MODEL,
      input: { prompt: "quick [latency:100]" },
      requestId: "g",
      wait: true,
    });
    expect(sim.callsTo("create")[0]!.headers.prefer).toBe("wait=5");
    const result = await p.result({ endpointId: MODEL, providerRequestId });
    expect(result.ok).toBe(true);
    expect(sim.callsTo("get")).toHaveLength(0);
  });

  test("past the wait the create answers the prediction as it stands, and it is polled to the end", async () => {
    const p = client({ waitSeconds: 1 });
    const { providerRequestId } = await p.submit({
      endpointId: MODEL,
      input: { prompt: "longer [latency:2500]" },
      requestId: "g",
      wait: true,
    });
    const ref = { endpointId: MODEL, providerRequestId };
    expect((await p.status(ref)).status).not.toBe("succeeded");
    await until(
      () => p.status(ref),
      (s) => s.status === "succeeded",
    );
    expect((await p.result(ref)).ok).toBe(true);
    expect(sim.callsTo("get").length).toBeGreaterThan(1);
  });
});

describe("ending without an output", () => {
  test("cancel: a starting prediction is cancelled, a processing one told to stop, an ended one left alone; the result says cancelled", async () => {
    const p = client();
    const queued = await p.submit({ endpointId: MODEL, input: { prompt: "[latency:10000]" }, requestId: "g" });
    const qref = { endpointId: MODEL, providerRequestId: queued.providerRequestId };
    expect(await p.cancel(qref)).toEqual({ status: "cancelled" });
    expect(await p.status(qref)).toMatchObject({ status: "cancelled", errorType: "request_cancelled" });
    const cancelled = await p.result(qref);
    expect(cancelled.ok).toBe(false);
    expect((cancelled as { error: ModelFailedError }).error).toMatchObject({ errorType: "request_cancelled" });
    expect(await p.cancel(qref)).toEqual({ status: "cancelled" });

    const running = await p.submit({ endpointId: MODEL, input: { prompt: "[latency:1500]" }, requestId: "g" });
    const rref = { endpointId: MODEL, providerRequestId: running.providerRequestId };
    await until(
      () => p.status(rref),
      (s) => s.status === "running",
    );
    expect(await p.cancel(rref)).toEqual({ status: "cancel_requested" });

    const done = await p.submit({ endpointId: MODEL, input: { prompt: "[latency:10]" }, requestId: "g" });
    const dref = { endpointId: MODEL, providerRequestId: done.providerRequestId };
    await until(
      () => p.status(dref),
      (s) => s.status === "succeeded",
    );
    expect(await p.cancel(dref)).toEqual({ status: "already_ended" });
    expect(await p.cancel({ endpointId: MODEL, providerRequestId: "nope" })).toEqual({ status: "not_found" });
  });

  test("Cancel-After passing before the start: aborted, seen as expired, a retryable start_deadline failure", async () => {
    const p = client({ cancelAfter: "300ms" });
    const { providerRequestId } = await p.submit({ endpointId: MODEL, input: { prompt: "[latency:10000]" }, requestId: "g" });
    expect(sim.callsTo("create")[0]!.headers["cancel-after"]).toBe("300ms");
    const ref = { endpointId: MODEL, providerRequestId };
    expect(
      await until(
        () => p.status(ref),
        (s) => s.status !== "queued",
      ),
    ).toMatchObject({ status: "expired" });
    const result = await p.result(ref);
    expect(result.ok).toBe(false);
    const error = (result as { error: ProviderUnavailableError }).error;
    expect(error).toBeInstanceOf(ProviderUnavailableError);
    expect(error.reason).toBe("start_deadline");
  });

  test("the model's failure is a failed prediction: ModelFailedError with its error", async () => {
    const p = client();
    const { providerRequestId } = await p.submit({
      endpointId: MODEL,
      input: { prompt: "[fail:generation] [latency:20]" },
      requestId: "g",
    });
    const ref = { endpointId: MODEL, providerRequestId };
    expect(
      await until(
        () => p.status(ref),
        (s) => s.status === "failed",
      ),
    ).toMatchObject({ error: expect.stringContaining("failed") });
    const result = await p.result(ref);
    expect((result as { error: unknown }).error).toBeInstanceOf(ModelFailedError);
  });
});

describe("start deadlines: Replicate has only Cancel-After, a deadline for the whole prediction", () => {
  // The test's clock: `slow` keeps every prediction `starting` 5 s longer, `timed` does not.
  let clock = Date.now();
  let slow: ReplicateSimulator;
  let timed: ReplicateSimulator;
  const instant = { profile: "instant", latencyMs: 0, latencyScale: 1, errorRate: 0 } as const;
  beforeAll(async () => {
    slow = await new ReplicateSimulator({ token: TOKEN, settings: instant, now: () => clock, startDelayMs: 5_000 }).listen();
    timed = await new ReplicateSimulator({ token: TOKEN, settings: instant, now: () => clock }).listen();
  });
  afterAll(async () => {
    await slow.close();
    await timed.close();
  });

  test("a start deadline is not sent: the configured Cancel-After stays (it would cancel, and bill, a job that started)", async () => {
    const p = client({ apiUrl: slow.apiUrl, cancelAfter: "2h" });
    await p.submit({ endpointId: MODEL, input: { prompt: "p" }, requestId: "g", startDeadlineMs: 1_000 });
    expect(slow.calls.at(-1)!.headers["cancel-after"]).toBe("2h");
  });

  test("not started within Cancel-After: aborted, read as expired, the result a retryable start_deadline", async () => {
    const p = client({ apiUrl: slow.apiUrl, cancelAfter: "1s" });
    const { providerRequestId } = await p.submit({ endpointId: MODEL, input: { prompt: "[latency:1000]" }, requestId: "g" });
    const ref = { endpointId: MODEL, providerRequestId };
    expect(await p.status(ref)).toMatchObject({ status: "queued" });
    clock += 1_000;
    expect(await p.status(ref, { logs: true })).toMatchObject({ status: "expired", errorType: "start_deadline", logs: [] });
    const result = await p.result(ref);
    expect(result.ok).toBe(false);
    const error = (result as { error: ProviderUnavailableError }).error;
    expect(error).toBeInstanceOf(ProviderUnavailableError);
    expect(error).toMatchObject({ provider: "replicate", reason: "start_deadline", retryable: true });
    // It never runs: long after it would have ended it is still aborted, never started.
    clock += 10_000;
    expect(slow.prediction(providerRequestId)).toMatchObject({ abortedAt: expect.any(Number) });
    expect(await slow.view(slow.prediction(providerRequestId)!)).toMatchObject({ status: "aborted", started_at: null, logs: "" });
    expect(await p.cancel(ref)).toEqual({ status: "already_ended" });
  });

  test("without a deadline the same prediction starts late and succeeds", async () => {
    const p = client({ apiUrl: slow.apiUrl });
    const { providerRequestId } = await p.submit({ endpointId: MODEL, input: { prompt: "[latency:1000]" }, requestId: "g" });
    const ref = { endpointId: MODEL, providerRequestId };
    clock += 5_000;
    expect(await p.status(ref)).toMatchObject({ status: "queued" });
    clock += 200;
    expect(await p.status(ref)).toMatchObject({ status: "running" });
    clock += 800;
    expect(await p.status(ref)).toMatchObject({ status: "succeeded", inferenceTimeMs: 800 });
    expect(await p.result(ref)).toMatchObject({ ok: true, output: { images: [expect.objectContaining({ width: 1024, height: 1024 })] } });
  });

  test("Replicate's deadline covers the whole prediction: one that started in time but runs past it is cancelled, not expired", async () => {
    const p = client({ apiUrl: timed.apiUrl, cancelAfter: "1s" });
    const { providerRequestId } = await p.submit({ endpointId: MODEL, input: { prompt: "[latency:3000]" }, requestId: "g" });
    const ref = { endpointId: MODEL, providerRequestId };
    clock += 600;
    expect(await p.status(ref)).toMatchObject({ status: "running" });
    clock += 400;
    expect(await p.status(ref)).toMatchObject({ status: "cancelled", errorType: "request_cancelled" });
  });
});

describe("refusals", () => {
  test("429 with Retry-After: the create is retried after the hint; past the retries it is rate_limited with the hint", async () => {
    const p = client({ maxRetries: 2 });
    sim.failNext("create", rate(), rate());
    const { providerRequestId } = await p.submit({ endpointId: MODEL, input: { prompt: "[latency:10]" }, requestId: "g" });
    expect(providerRequestId).toBeTruthy();
    expect(sim.callsTo("create")).toHaveLength(3);
    expect(sleeps.every((ms) => ms >= 1000)).toBe(true);

    sim.failNext("create", rate(), rate(), rate());
    const err = await caught(p.submit({ endpointId: MODEL, input: { prompt: "x" }, requestId: "g" }));
    expect(err).toBeInstanceOf(ProviderUnavailableError);
    expect(err).toMatchObject({ reason: "rate_limited", status: 429, retryAfterMs: 1000, maybeAccepted: false });
  });

  test("a 5xx create is not repeated (it may have been accepted): provider unavailable; reads are retried past 5xx", async () => {
    const p = client();
    sim.failNext("create", problemAnswer(503, "Service unavailable"));
    const err = await caught(p.submit({ endpointId: MODEL, input: { prompt: "x" }, requestId: "g" }));
    expect(err).toMatchObject({ reason: "server_error", status: 503 });
    expect(sim.callsTo("create")).toHaveLength(1);

    const { providerRequestId } = await p.submit({ endpointId: MODEL, input: { prompt: "[latency:10]" }, requestId: "g" });
    sim.failNext("get", problemAnswer(502, "Bad gateway"));
    expect((await p.status({ endpointId: MODEL, providerRequestId })).status).toBeDefined();
    expect(sim.callsTo("get")).toHaveLength(2);
  });

  test("[fail:provider] and [fail:rate_limit] markers refuse the create like Replicate's problems", async () => {
    const err = await caught(
      client({ maxRetries: 0 }).submit({ endpointId: MODEL, input: { prompt: "[fail:rate_limit]" }, requestId: "g" }),
    );
    expect(err).toMatchObject({ reason: "rate_limited", retryAfterMs: 1000 });
    const down = await caught(client().submit({ endpointId: MODEL, input: { prompt: "[fail:provider]" }, requestId: "g" }));
    expect(down).toMatchObject({ reason: "server_error", status: 503 });
  });

  test("a 422 problem is the model refusing its input (generation_failed); a wrong token is a refusal (provider_error)", async () => {
    const invalid = await caught(client().submit({ endpointId: MODEL, input: "not an object" as never, requestId: "g" }));
    expect(invalid).toBeInstanceOf(ModelFailedError);
    expect(invalid.message).toContain("input");
    const wrong = await caught(client({ token: "wrong" }).submit({ endpointId: MODEL, input: { prompt: "x" }, requestId: "g" }));
    expect(wrong).toBeInstanceOf(ProviderRejectedError);
    expect(wrong).toMatchObject({ reason: "unauthorized", status: 401 });
  });
});

describe("webhooks", () => {
  test("a completed event is POSTed once, signed with the account's secret; verified by the secret read from the API, refused when tampered", async () => {
    deliveries.length = 0;
    const p = client();
    const { providerRequestId } = await p.submit({
      endpointId: MODEL,
      input: { prompt: "hooked [latency:50]", image_size: "square" },
      requestId: "g",
      webhookUrl: "http://app.test/webhooks/provider",
    });
    expect(JSON.parse(sim.callsTo("create")[0]!.body)).toMatchObject({
      webhook: "http://app.test/webhooks/provider",
      webhook_events_filter: ["completed"],
    });
    const delivery = await until(
      async () => deliveries.find((d) => d.body.includes(providerRequestId)),
      (d) => d !== undefined,
    );
    const raw = { headers: new Headers(delivery!.headers), body: delivery!.body };
    const event = await withEnv({ PROVIDER: "replicate", REPLICATE_API_TOKEN: TOKEN, REPLICATE_API_URL: sim.apiUrl }, async () => {
      resetReplicateWebhookSecret();
      resetProviders();
      try {
        return await verifyProviderWebhook(raw);
      } finally {
        resetReplicateWebhookSecret();
      }
    });
    expect(sim.callsTo("secret")).toHaveLength(1);
    expect(event).toMatchObject({ provider: "replicate", providerRequestId, outcome: { kind: "completed" } });
    expect((event.outcome as { output: any }).output.images[0]).toMatchObject({
      width: 512,
      height: 512,
      content_type: expect.any(String),
    });

    const tampered = { headers: raw.headers, body: raw.body.replace(providerRequestId, "someone-else") };
    const refused = await withEnv({ REPLICATE_WEBHOOK_SECRET: sim.webhookSecret }, async () => caught(verifyProviderWebhook(tampered)));
    expect(refused).toBeInstanceOf(DomainError);
    expect(refused.code).toBe("invalid_signature");
    // Not configured for Replicate: its webhooks are not anyone's here.
    expect((await caught(verifyProviderWebhook(raw))).code).toBe("invalid_signature");
  });

  test("an aborted prediction's webhook is a failed event the engine refunds as provider_error", async () => {
    deliveries.length = 0;
    const { providerRequestId } = await client({ cancelAfter: "100ms" }).submit({
      endpointId: MODEL,
      input: { prompt: "[latency:10000]" },
      requestId: "g",
      webhookUrl: "http://app.test/webhooks/provider",
    });
    const delivery = await until(
      async () => deliveries.find((d) => d.body.includes(providerRequestId)),
      (d) => d !== undefined,
    );
    const signed = standardWebhookSigner(sim.webhookSecret);
    expect(() => signed.verify(delivery!.body, delivery!.headers)).not.toThrow();
    const event = await withEnv({ REPLICATE_WEBHOOK_SECRET: sim.webhookSecret }, () =>
      verifyProviderWebhook({ headers: new Headers(delivery!.headers), body: delivery!.body }),
    );
    expect(event.outcome).toMatchObject({ kind: "failed", error: { reason: "start_deadline" } });
  });
});

const rate = () => ({
  status: 429,
  body: { title: "Request was throttled", status: 429, detail: "Request was throttled." },
  headers: { "retry-after": "1" },
});
const problemAnswer = (status: number, title: string) => ({ status, body: { title, status, detail: title } });
