import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { eq } from "drizzle-orm";
import sharp from "sharp";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test, vi } from "vitest";
import { getDb } from "@/db/client";
import { localProviderRequests } from "@/db/schema";
import { resetEnv } from "@/lib/core/env";
import { HANG_MS } from "@/test/wait";
import { ModelFailedError, ProviderRejectedError, ProviderUnavailableError } from "@/lib/provider/errors";
import type { ProviderResult } from "@/lib/provider/types";
import { verifyProviderWebhook } from "@/lib/provider/webhook-verify";
import { seededRandom } from "./latency-profile";
import { LocalProvider } from "./provider";

let clock: number;
let provider: LocalProvider;
const providers: LocalProvider[] = [];
const make = (options: ConstructorParameters<typeof LocalProvider>[0] = {}) => {
  const p = new LocalProvider({ now: () => clock, webhookRetryBaseMs: 1_000, ...options });
  providers.push(p);
  return p;
};

beforeEach(() => {
  clock = Date.now();
  provider = make();
});
afterEach(async () => {
  for (const p of providers.splice(0)) {
    p.webhooks.stop();
    await p.webhooks.idle();
  }
});

let seq = 0;
async function run(endpointId: string, input: Record<string, unknown>, extra: { category?: string; webhookUrl?: string } = {}) {
  const { providerRequestId } = await provider.submit({ endpointId, input, requestId: `req-${seq++}`, ...extra });
  return { endpointId, providerRequestId };
}
async function output(endpointId: string, input: Record<string, unknown>, category?: string) {
  const ref = await run(endpointId, input, { category });
  const result = await provider.result(ref);
  if (!result.ok) throw result.error;
  return result.output as any;
}
async function bytesOf(url: string) {
  const media = await provider.fetchMedia(url);
  expect(media).not.toBeNull();
  return media!;
}
const failureOf = (r: ProviderResult) => (r.ok ? null : r.error);

describe("media", () => {
  test("images are real PNGs of the requested size and count, and file_size is their true size", async () => {
    const out = await output("fal-ai/flux/dev", {
      prompt: "a lighthouse",
      image_size: "landscape_16_9",
      num_images: 2,
      output_format: "png",
      seed: 42,
    });
    expect(out).toMatchObject({ seed: 42, prompt: "a lighthouse", has_nsfw_concepts: [false, false], timings: { inference: 0 } });
    expect(out.images).toHaveLength(2);
    for (const image of out.images) {
      expect(image).toMatchObject({ content_type: "image/png", width: 1024, height: 576 });
      const media = await bytesOf(image.url);
      expect(media.contentType).toBe("image/png");
      expect(media.bytes.byteLength).toBe(image.file_size);
      expect(await sharp(media.bytes).metadata()).toMatchObject({ format: "png", width: 1024, height: 576 });
    }
    expect(Buffer.compare((await bytesOf(out.images[0].url)).bytes, (await bytesOf(out.images[1].url)).bytes)).not.toBe(0);
  });

  test.each([
    ["square_hd", 1024, 1024],
    ["square", 512, 512],
    ["portrait_4_3", 768, 1024],
    ["portrait_16_9", 576, 1024],
    ["landscape_4_3", 1024, 768],
    ["landscape_16_9", 1024, 576],
  ])("image_size %s is %i×%i, like fal", async (image_size, width, height) => {
    const out = await output("fal-ai/flux/schnell", { prompt: "p", image_size });
    expect(out.images[0]).toMatchObject({ width, height, content_type: "image/jpeg" });
    expect(await sharp((await bytesOf(out.images[0].url)).bytes).metadata()).toMatchObject({ format: "jpeg", width, height });
  });

  test("custom {width, height}, aspect ratios and the default size", async () => {
    expect((await output("fal-ai/flux/dev", { prompt: "p", image_size: { width: 640, height: 360 } })).images[0]).toMatchObject({
      width: 640,
      height: 360,
    });
    expect((await output("some/pro-model", { prompt: "p", aspect_ratio: "16:9" }, "text-to-image")).images[0]).toMatchObject({
      width: 1344,
      height: 768,
    });
    expect((await output("fal-ai/flux/dev", { prompt: "p" })).images[0]).toMatchObject({ width: 1024, height: 1024 });
  });

  test("the same prompt and seed give the same bytes; another seed or prompt gives others", async () => {
    const a = await output("fal-ai/flux/dev", { prompt: "a cat", seed: 1, image_size: "square" });
    clock += 10_000;
    const b = await output("fal-ai/flux/dev", { prompt: "a cat", seed: 1, image_size: "square" });
    const c = await output("fal-ai/flux/dev", { prompt: "a cat", seed: 2, image_size: "square" });
    const d = await output("fal-ai/flux/dev", { prompt: "a dog", seed: 1, image_size: "square" });
    const bytes = async (o: any) => (await bytesOf(o.images[0].url)).bytes;
    expect(Buffer.compare(await bytes(a), await bytes(b))).toBe(0);
    expect(Buffer.compare(await bytes(a), await bytes(c))).not.toBe(0);
    expect(Buffer.compare(await bytes(a), await bytes(d))).not.toBe(0);
    // Without a seed one is derived from the prompt, and reported.
    const e = await output("fal-ai/flux/dev", { prompt: "a cat", image_size: "square" });
    const f = await output("fal-ai/flux/dev", { prompt: "a cat", image_size: "square" });
    expect(e.seed).toEqual(f.seed);
    expect(Number.isInteger(e.seed)).toBe(true);
  });

  test("video is a real MP4 (H.264) of the requested duration and aspect ratio", async () => {
    const out = await output("fal-ai/kling-video/v2.1/standard/text-to-video", { prompt: "waves", duration: "10", aspect_ratio: "9:16" });
    expect(out.video).toMatchObject({ content_type: "video/mp4", width: 180, height: 320, duration: 10 });
    const { bytes } = await bytesOf(out.video.url);
    expect(bytes.byteLength).toBe(out.video.file_size);
    const boxes = topBoxes(Buffer.from(bytes));
    expect(boxes.map((b) => b.type)).toEqual(["ftyp", "moov", "mdat"]);
    const moov = boxes[1]!.body;
    const mvhd = moov.subarray(moov.indexOf("mvhd") + 4);
    expect(mvhd.readUInt32BE(12)).toBe(1000); // timescale
    expect(mvhd.readUInt32BE(16)).toBe(10_000); // duration in ms
    const avc1 = moov.subarray(moov.indexOf("avc1") + 4);
    expect([avc1.readUInt16BE(24), avc1.readUInt16BE(26)]).toEqual([180, 320]);
    expect(moov.includes("avcC")).toBe(true);
    // Every sample is inside mdat: 120 frames at 12 fps.
    const stsz = moov.subarray(moov.indexOf("stsz") + 4);
    expect(stsz.readUInt32BE(8)).toBe(120);
  });

  test("speech is a WAV whose length follows the text; music follows the requested duration", async () => {
    const text = "Hello there, this is a simulated voice reading a sentence.";
    const tts = await output("fal-ai/minimax/speech-02-hd", { text });
    const expectedMs = Math.round((text.length / 15) * 1000);
    expect(tts).toMatchObject({ audio: { content_type: "audio/wav", duration: expectedMs / 1000 }, duration_ms: expectedMs });
    expect(wavSeconds((await bytesOf(tts.audio.url)).bytes)).toBeCloseTo(expectedMs / 1000, 3);

    const music = await output("fal-ai/minimax-music", { prompt: "calm piano", duration: 7 });
    expect(music.audio).toMatchObject({ content_type: "audio/wav", duration: 7 });
    const wav = (await bytesOf(music.audio.url)).bytes;
    expect(wavSeconds(wav)).toBe(7);
    expect(wav.byteLength).toBe(music.audio.file_size);
  });

  test("speech-to-text returns text and timestamped chunks; embeddings are unit vectors that keep similarity", async () => {
    const stt = await output("fal-ai/wizper", { audio_url: "https://example.test/a.mp3", task: "transcribe" });
    expect(typeof stt.text).toBe("string");
    expect(stt.chunks.length).toBeGreaterThan(0);
    expect(stt.chunks[0]).toMatchObject({ timestamp: [0, expect.any(Number)], text: expect.any(String) });
    expect(stt.text).toBe(stt.chunks.map((c: any) => c.text).join(" "));

    const emb = await output("fal-ai/text-embedding", {
      input: ["the quick brown fox jumps", "the quick brown fox leaps", "quarterly revenue grew strongly"],
      dimensions: 256,
    });
    expect(emb.dimensions).toBe(256);
    const [a, b, c] = emb.embeddings.map((e: any) => e.embedding as number[]);
    expect(a).toHaveLength(256);
    const dot = (x: number[], y: number[]) => x.reduce((s, v, i) => s + v * y[i]!, 0);
    expect(dot(a, a)).toBeCloseTo(1, 4);
    expect(dot(a, b)).toBeGreaterThan(dot(a, c));
  });

  test("voice cloning returns a stable voice id; 3d returns a binary glTF", async () => {
    const v1 = await output("fal-ai/minimax/voice-clone", { audio_url: "https://example.test/me.wav", name: "me" });
    const v2 = await output("fal-ai/minimax/voice-clone", { audio_url: "https://example.test/me.wav", name: "me" });
    expect(v1.custom_voice_id).toMatch(/^sim_voice_[0-9a-f]{16}$/);
    expect(v2.custom_voice_id).toBe(v1.custom_voice_id);

    const mesh = await output("fal-ai/trellis", { image_url: "https://example.test/chair.png" });
    expect(mesh.model_mesh).toMatchObject({ content_type: "model/gltf-binary", file_name: expect.stringMatching(/\.glb$/) });
    const glb = Buffer.from((await bytesOf(mesh.model_mesh.url)).bytes);
    expect(glb.toString("latin1", 0, 4)).toBe("glTF");
    expect(glb.readUInt32LE(8)).toBe(glb.length);
    const json = JSON.parse(glb.toString("utf8", 20, 20 + glb.readUInt32LE(12)));
    expect(json).toMatchObject({ asset: { version: "2.0" }, meshes: [{ primitives: [{ attributes: { POSITION: 0 } }] }] });
  });

  test("the category decides the kind of output for endpoints it does not know", async () => {
    expect(await output("acme/anything", { prompt: "x", duration: 3 }, "text-to-video")).toHaveProperty("video");
    expect(await output("acme/anything", { text: "hi" }, "text-to-speech")).toHaveProperty("audio");
    expect(await output("acme/some-tts", { text: "hi" })).toHaveProperty("duration_ms");
    expect(await output("acme/unknown", { prompt: "x" })).toHaveProperty("images");
  });

  test("input the model would refuse is a 422 model failure with fal's detail", async () => {
    const ref = await run("fal-ai/flux/dev", { prompt: "p", num_images: 9 });
    const error = failureOf(await provider.result(ref));
    expect(error).toBeInstanceOf(ModelFailedError);
    expect(error).toMatchObject({ status: 422, detail: [{ loc: ["body", "num_images"], type: "less_than_equal" }] });
    const big = failureOf(await provider.result(await run("fal-ai/flux/dev", { prompt: "p", image_size: { width: 5000, height: 10 } })));
    expect(big).toMatchObject({ status: 422, detail: [{ loc: ["body", "image_size"] }] });
  });
});

describe("progress and latency", () => {
  test("a slow request queues, runs with logs, then completes; its result is not ready before", async () => {
    const ref = await run("fal-ai/flux/dev", { prompt: "slow [latency:2000]", num_inference_steps: 4 });
    const queued = await provider.status(ref, { logs: true });
    expect(queued).toEqual({ status: "queued", queuePosition: 1, logs: [] });
    clock += 500;
    const running = await provider.status(ref, { logs: true });
    expect(running.status).toBe("running");
    expect(running.logs.map((l) => l.message)).toEqual([`Runner acquired; loading fal-ai/flux/dev`]);
    const early = await caught(provider.result(ref));
    expect(early).toBeInstanceOf(ProviderUnavailableError);
    expect(early).toMatchObject({ reason: "not_ready", retryAfterMs: 1500 });
    clock += 1000;
    expect((await provider.status(ref, { logs: true })).logs.length).toBeGreaterThan(1);
    clock += 500;
    const done = await provider.status(ref, { logs: true });
    expect(done).toMatchObject({ status: "succeeded", inferenceTimeMs: 1600, error: null });
    expect(done.logs.map((l) => l.message)).toEqual([
      "Runner acquired; loading fal-ai/flux/dev",
      "Step 1/4",
      "Step 2/4",
      "Step 3/4",
      "Step 4/4",
      "Generation finished; uploading outputs",
    ]);
    expect(new Date(done.logs.at(-1)!.timestamp).getTime()).toBe(clock);
    expect((await provider.status(ref)).logs).toEqual([]);
    expect((await provider.result(ref)).ok).toBe(true);
  });

  test("LOCAL_PROVIDER_LATENCY_MS sets the default latency; per-model config overrides it", async () => {
    process.env.LOCAL_PROVIDER_LATENCY_MS = "3000";
    process.env.LOCAL_PROVIDER_MODELS = JSON.stringify({
      "fal-ai/flux/schnell": { latencyMs: 100 },
      "acme/broken": { fail: "generation" },
    });
    resetEnv();
    try {
      const slow = await run("fal-ai/flux/dev", { prompt: "p" });
      const fast = await run("fal-ai/flux/schnell", { prompt: "p" });
      const broken = await run("acme/broken", { prompt: "p" });
      clock += 1000;
      expect((await provider.status(slow)).status).toBe("running");
      expect((await provider.status(fast)).status).toBe("succeeded");
      clock += 2000;
      expect((await provider.status(slow)).status).toBe("succeeded");
      expect(failureOf(await provider.result(broken))).toMatchObject({ status: 422, errorType: "simulated_failure" });
    } finally {
      delete process.env.LOCAL_PROVIDER_LATENCY_MS;
      delete process.env.LOCAL_PROVIDER_MODELS;
      resetEnv();
    }
  });
});

describe("realistic profile", () => {
  const realistic = { profile: "realistic" as const, latencyMs: 0, latencyScale: 0.1, errorRate: 0 };

  test("each request takes a latency drawn for its kind, scaled, and walks queued → running → succeeded over it with logs", async () => {
    provider = make({ settings: realistic, random: seededRandom(11) });
    const image = await run("fal-ai/flux/dev", { prompt: "p", num_inference_steps: 4 });
    const video = await run("acme/anything", { prompt: "p", duration: 3 }, { category: "text-to-video" });
    const [imageRow, videoRow] = await Promise.all(
      [image, video].map(
        async (ref) =>
          (await (await getDb()).select().from(localProviderRequests).where(eq(localProviderRequests.id, ref.providerRequestId)))[0]!,
      ),
    );
    expect(imageRow!.latencyMs).toBeGreaterThanOrEqual(100);
    expect(imageRow!.latencyMs).toBeLessThanOrEqual(400);
    expect(videoRow!.latencyMs).toBeGreaterThanOrEqual(2_000);
    expect(videoRow!.latencyMs).toBeLessThanOrEqual(6_000);
    expect((await provider.status(image)).status).toBe("queued");
    clock += Math.ceil(imageRow!.latencyMs * 0.2);
    expect((await provider.status(image, { logs: true })).status).toBe("running");
    clock += imageRow!.latencyMs;
    const done = await provider.status(image, { logs: true });
    expect(done.status).toBe("succeeded");
    expect(done.logs.map((l) => l.message)).toContain("Generation finished; uploading outputs");
    expect((await provider.status(video)).status).not.toBe("succeeded");
  });

  test("at an error rate of 1 every submit attempt fails transiently: a 429 with a retry hint or a 503", async () => {
    provider = make({ settings: { ...realistic, errorRate: 1 }, random: seededRandom(4) });
    const errors = [];
    for (let i = 0; i < 20; i++)
      errors.push(await caught(provider.submit({ endpointId: "fal-ai/flux/dev", input: { prompt: "p" }, requestId: "same" })));
    for (const e of errors) expect(e).toBeInstanceOf(ProviderUnavailableError);
    expect(errors.filter((e) => e.status === 429).every((e) => e.retryAfterMs === 1000 && e.reason === "rate_limited")).toBe(true);
    expect(new Set(errors.map((e) => e.status))).toEqual(new Set([429, 503]));
    // A scripted marker is not overridden by the draw.
    await expect(
      provider.submit({ endpointId: "fal-ai/flux/dev", input: { prompt: "[fail:generation]" }, requestId: "x" }),
    ).resolves.toBeDefined();
  });

  test("a drawn result failure fails the first fetch only; the retry gets the output", async () => {
    // The latency takes two draws, then 0.45 lands in the result band of rate 0.4 (rate ≤ u < 1.25 × rate).
    const draws = [0.5, 0.5, 0.45];
    provider = make({ settings: { ...realistic, errorRate: 0.4 }, random: () => draws.shift() ?? 0.5 });
    const ref = await run("fal-ai/flux/dev", { prompt: "p" });
    clock += 1_000;
    expect(await caught(provider.result(ref))).toMatchObject({ status: 503, retryable: true });
    expect((await provider.result(ref)).ok).toBe(true);
  });
});

describe("failure injection", () => {
  test("[fail:generation:<type>] completes with the model's error", async () => {
    const ref = await run("fal-ai/flux/dev", { prompt: "nsfw [fail:generation:content_policy_violation]" });
    expect(await provider.status(ref)).toMatchObject({
      status: "failed",
      error: "Invalid status code: 422",
      errorType: "content_policy_violation",
    });
    const error = failureOf(await provider.result(ref));
    expect(error).toBeInstanceOf(ModelFailedError);
    expect(error).toMatchObject({ provider: "local", status: 422, errorType: "content_policy_violation" });
  });

  test("[fail:provider] refuses every submit with a retryable 503; [fail:provider:2] only the first two", async () => {
    for (let i = 0; i < 3; i++) {
      const err = await caught(provider.submit({ endpointId: "fal-ai/flux/dev", input: { prompt: "[fail:provider]" }, requestId: "same" }));
      expect(err).toMatchObject({ status: 503, retryable: true, reason: "server_error" });
    }
    const attempt = () => provider.submit({ endpointId: "fal-ai/flux/dev", input: { prompt: "[fail:provider:2]" }, requestId: "job-2" });
    await caught(attempt());
    await caught(attempt());
    await expect(attempt()).resolves.toMatchObject({ providerRequestId: expect.any(String) });
  });

  test("[fail:rate_limit] is a 429 with a one-second retry hint", async () => {
    const err = await caught(provider.submit({ endpointId: "x/y", input: { prompt: "[fail:rate_limit]" }, requestId: "r" }));
    expect(err).toMatchObject({ status: 429, retryAfterMs: 1000, reason: "rate_limited" });
  });

  test("[fail:result:1] fails the first result fetch only", async () => {
    const ref = await run("fal-ai/flux/dev", { prompt: "[fail:result:1]" });
    expect(await caught(provider.result(ref))).toMatchObject({ status: 503, retryable: true });
    expect((await provider.result(ref)).ok).toBe(true);
  });

  test("[fail:timeout] starts and never finishes", async () => {
    const ref = await run("fal-ai/flux/dev", { prompt: "[fail:timeout]" });
    clock += 7 * 24 * 3600 * 1000;
    expect((await provider.status(ref)).status).toBe("running");
    expect(await caught(provider.result(ref))).toMatchObject({ reason: "not_ready", retryAfterMs: null });
  });
});

describe("cancel", () => {
  test("a queued request is removed, a running one is stopped, a finished one stays", async () => {
    const queued = await run("fal-ai/flux/dev", { prompt: "[latency:10000]" });
    expect(await provider.cancel(queued)).toEqual({ status: "cancelled" });
    expect(await provider.status(queued)).toMatchObject({ status: "cancelled", errorType: "request_cancelled" });
    expect(failureOf(await provider.result(queued))).toMatchObject({ errorType: "request_cancelled" });
    expect(await provider.cancel(queued)).toEqual({ status: "already_ended" });

    const running = await run("fal-ai/flux/dev", { prompt: "[latency:10000]" });
    clock += 5000;
    expect(await provider.cancel(running)).toEqual({ status: "cancel_requested" });
    expect((await provider.status(running)).status).toBe("cancelled");

    const done = await run("fal-ai/flux/dev", { prompt: "quick" });
    expect(await provider.cancel(done)).toEqual({ status: "already_ended" });
    expect(await provider.cancel({ endpointId: "fal-ai/flux/dev", providerRequestId: crypto.randomUUID() })).toEqual({
      status: "not_found",
    });
  });

  test("an unknown request is a not_found rejection for status and result", async () => {
    const err = await caught(provider.status({ endpointId: "fal-ai/flux/dev", providerRequestId: crypto.randomUUID() }));
    expect(err).toBeInstanceOf(ProviderRejectedError);
    expect(err).toMatchObject({ status: 404, reason: "not_found" });
  });
});

describe("survives a restart", () => {
  test("another instance (a restarted process) reads the request from the database and gives the same output", async () => {
    const ref = await run("fal-ai/flux/dev", { prompt: "persist me [latency:1000]", seed: 5 });
    const restarted = make();
    expect((await restarted.status(ref)).status).toBe("queued");
    clock += 1000;
    const before = await provider.result(ref);
    const after = await restarted.result(ref);
    expect(after).toEqual(before);
    const [row] = await (await getDb()).select().from(localProviderRequests).where(eq(localProviderRequests.id, ref.providerRequestId));
    expect(row).toMatchObject({ endpointId: "fal-ai/flux/dev", latencyMs: 1000, input: { prompt: "persist me [latency:1000]", seed: 5 } });
  });
});

describe("webhooks", () => {
  let receiver: Server;
  let received: { headers: Headers; body: string }[];
  let answers: number[];
  let url: string;

  beforeAll(async () => {
    receiver = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c) => chunks.push(c));
      req.on("end", () => {
        received.push({ headers: new Headers(req.headers as Record<string, string>), body: Buffer.concat(chunks).toString("utf8") });
        res.writeHead(answers.shift() ?? 200).end();
      });
    });
    await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", r));
    url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/webhooks/provider`;
  });
  afterAll(async () => {
    await new Promise<void>((r) => receiver.close(() => r()));
  });
  beforeEach(() => {
    received = [];
    answers = [];
  });

  test("a delivery whose timer fires before the clock reads its due time is sent by that timer, not left to the next sweep", async () => {
    // The clock stays at the submit time: when the 200 ms timer fires, now() reads 200 ms early
    // (a timer may fire a millisecond early in production; the sweep would come 30 s later).
    await run("fal-ai/flux/dev", { prompt: "early [latency:200]" }, { webhookUrl: url });
    // HANG_MS is under the sweep's 30 s: only the timer's own delivery arrives in time.
    await vi.waitFor(() => expect(received).toHaveLength(1), { timeout: HANG_MS, interval: 20 });
    expect(JSON.parse(received[0]!.body)).toMatchObject({ status: "OK" });
  });

  test("on completion fal's payload is POSTed, signed with the local secret, carrying the same output as result()", async () => {
    const ref = await run("fal-ai/flux/dev", { prompt: "hook" }, { webhookUrl: url });
    await provider.webhooks.deliverDue();
    await provider.webhooks.idle();
    expect(received).toHaveLength(1);
    const event = await verifyProviderWebhook(received[0]!);
    expect(event).toMatchObject({ provider: "local", providerRequestId: ref.providerRequestId, gatewayRequestId: ref.providerRequestId });
    const result = await provider.result(ref);
    expect(event.outcome).toEqual({ kind: "completed", output: (result as { output: unknown }).output });
    expect(received[0]!.headers.get("webhook-id")).toBe(ref.providerRequestId);
  });

  test("a model failure is delivered as an ERROR payload with its detail", async () => {
    await run("fal-ai/flux/dev", { prompt: "[fail:generation]" }, { webhookUrl: url });
    await provider.webhooks.deliverDue();
    await provider.webhooks.idle();
    const event = await verifyProviderWebhook(received[0]!);
    expect(event.outcome.kind).toBe("failed");
    expect(JSON.parse(received[0]!.body)).toMatchObject({
      status: "ERROR",
      error: "Invalid status code: 422",
      payload: { detail: [{ type: "simulated_failure" }] },
    });
  });

  test("a failed delivery is retried later with the same webhook-id until it is accepted", async () => {
    answers = [500];
    const ref = await run("fal-ai/flux/dev", { prompt: "retry me" }, { webhookUrl: url });
    await provider.webhooks.deliverDue();
    await provider.webhooks.idle();
    const db = await getDb();
    const read = async () => (await db.select().from(localProviderRequests).where(eq(localProviderRequests.id, ref.providerRequestId)))[0]!;
    expect(await read()).toMatchObject({ webhookState: "pending", webhookAttempts: 1, webhookLastError: "receiver answered 500" });
    provider.webhooks.stop(); // only the explicit sweep below may send
    clock += 999;
    await provider.webhooks.deliverDue();
    expect(received).toHaveLength(1);
    clock += 1;
    await provider.webhooks.deliverDue();
    await provider.webhooks.idle();
    expect(received).toHaveLength(2);
    expect(received.map((r) => r.headers.get("webhook-id"))).toEqual([ref.providerRequestId, ref.providerRequestId]);
    expect(await read()).toMatchObject({ webhookState: "delivered", webhookAttempts: 2 });
  });

  test("a webhook owed when the process died is sent by the next process, once", async () => {
    const ref = await run("fal-ai/flux/dev", { prompt: "[latency:5000]" }, { webhookUrl: url });
    provider.webhooks.stop(); // the process dies before the request completes
    clock += 5000;
    const next = make();
    const another = make();
    await Promise.all([next.webhooks.deliverDue(), another.webhooks.deliverDue()]);
    await Promise.all([next.webhooks.idle(), another.webhooks.idle()]);
    expect(received).toHaveLength(1);
    expect((await verifyProviderWebhook(received[0]!)).providerRequestId).toBe(ref.providerRequestId);
  });

  test("a cancelled request sends no webhook", async () => {
    const ref = await run("fal-ai/flux/dev", { prompt: "[latency:5000]" }, { webhookUrl: url });
    await provider.cancel(ref);
    clock += 5000;
    await provider.webhooks.deliverDue();
    expect(received).toHaveLength(0);
  });

  test("a request whose output cannot be sent says so, and the result call fails until it works", async () => {
    const ref = await run("fal-ai/flux/dev", { prompt: "[fail:result:1]" }, { webhookUrl: url });
    await provider.webhooks.deliverDue();
    await provider.webhooks.idle();
    const event = await verifyProviderWebhook(received[0]!);
    expect(event.outcome).toMatchObject({ kind: "fetch_result" });
    expect(await caught(provider.result(ref))).toMatchObject({ retryable: true });
  });
});

describe("retention", () => {
  test("requests older than a week are pruned, unless a webhook is still owed to them", async () => {
    const old = await run("fal-ai/flux/dev", { prompt: "old" });
    const owed = await run("fal-ai/flux/dev", { prompt: "owed" }, { webhookUrl: "http://127.0.0.1:9/unreachable" });
    provider.webhooks.stop();
    clock += 7 * 24 * 3600 * 1000 - 1;
    const recent = await run("fal-ai/flux/dev", { prompt: "recent" });
    await provider.prune();
    expect((await make().status(old)).status).toBe("succeeded");
    clock += 2;
    expect(await provider.prune()).toBeGreaterThanOrEqual(1);
    const restarted = make();
    expect(await caught(restarted.status(old))).toMatchObject({ reason: "not_found" });
    expect((await restarted.status(owed)).status).toBe("succeeded");
    expect((await restarted.status(recent)).status).toBe("succeeded");
  });
});

describe("catalog", () => {
  test("lists its models with prices, by page, category and search", async () => {
    const all = await provider.listModels();
    expect(all.nextCursor).toBeNull();
    expect(all.models).toContainEqual(
      expect.objectContaining({
        endpointId: "fal-ai/flux/dev",
        category: "text-to-image",
        price: { unitPrice: "0.025", unit: "megapixel", currency: "USD" },
      }),
    );
    const page = await provider.listModels({ limit: 5 });
    const rest = await provider.listModels({ limit: 50, cursor: page.nextCursor });
    expect([...page.models, ...rest.models].map((m) => m.endpointId)).toEqual(all.models.map((m) => m.endpointId));
    expect((await provider.listModels({ category: "text-to-video" })).models.every((m) => m.category === "text-to-video")).toBe(true);
    expect((await provider.listModels({ query: "wizper" })).models.map((m) => m.endpointId)).toEqual(["fal-ai/wizper"]);
  });

  test("gives each model's input and output JSON Schema", async () => {
    const flux = await provider.schema("fal-ai/flux/dev");
    expect(flux.input).toMatchObject({
      type: "object",
      required: ["prompt"],
      properties: { num_images: { minimum: 1, maximum: 4, default: 1 }, image_size: { default: "square_hd" } },
    });
    expect(flux.output).toMatchObject({ required: ["images", "seed"] });
    expect((await provider.schema("fal-ai/wizper")).input).toMatchObject({ required: ["audio_url"] });
  });
});

describe("media links", () => {
  test("only signed, unexpired simulator links are served in-process", async () => {
    const out = await output("fal-ai/flux/dev", { prompt: "link" });
    const link = new URL(out.images[0].url);
    expect(link.origin).toBe("http://localhost:3000");
    expect(await provider.fetchMedia("https://cdn.example/x.png")).toBeNull();
    const tampered = new URL(link);
    tampered.pathname = tampered.pathname.replace(/\/1024x1024\//, "/1023x1024/");
    expect(await provider.fetchMedia(tampered.toString())).toBeNull();
    clock += 24 * 3600 * 1000 + 1000;
    expect(await provider.fetchMedia(link.toString())).toBeNull();
  });
});

async function caught(promise: Promise<unknown>): Promise<any> {
  try {
    await promise;
  } catch (err) {
    return err;
  }
  throw new Error("expected a rejection");
}

function topBoxes(buf: Buffer) {
  const out: { type: string; body: Buffer }[] = [];
  for (let off = 0; off < buf.length;) {
    const size = buf.readUInt32BE(off);
    out.push({ type: buf.toString("latin1", off + 4, off + 8), body: buf.subarray(off + 8, off + size) });
    off += size;
  }
  return out;
}

function wavSeconds(bytes: Uint8Array): number {
  const b = Buffer.from(bytes);
  expect(b.toString("ascii", 0, 4)).toBe("RIFF");
  expect(b.toString("ascii", 8, 12)).toBe("WAVE");
  return b.readUInt32LE(40) / b.readUInt32LE(28);
}
