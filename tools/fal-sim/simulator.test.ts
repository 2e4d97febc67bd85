import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import sharp from "sharp";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { ProviderUnavailableError } from "@/lib/provider/errors";
import { FalProvider } from "@/lib/provider/fal/provider";
import { parseFalWebhook } from "@/lib/provider/fal/webhook-payload";
import { LOCAL_MODELS, localModelSchema } from "@/simulators/local-provider/models";
import { seededRandom, type SimulatorSettings } from "@/simulators/local-provider/latency-profile";
import { JwksCache } from "@/lib/provider/fal/webhook";
import { verifyProviderWebhook } from "@/lib/provider/webhook-verify";
import { FalSimulator } from "./simulator";

const KEY = "sim-key-id:sim-key-secret";
const instant: SimulatorSettings = { profile: "instant", latencyMs: 0, latencyScale: 1, errorRate: 0 };
let clock: number;
let sim: FalSimulator;

beforeAll(async () => {
  sim = await new FalSimulator({ key: KEY, settings: instant, now: () => clock }).listen();
});
afterAll(async () => {
  await sim.close();
});
beforeEach(() => {
  clock = Date.now();
  sim.calls = [];
});

const auth = { authorization: `Key ${KEY}` };
async function call(path: string, init: { method?: string; body?: unknown; headers?: Record<string, string>; base?: string } = {}) {
  const res = await fetch(`${init.base ?? sim.base}${path}`, {
    method: init.method ?? (init.body === undefined ? "GET" : "POST"),
    headers: { ...auth, "content-type": "application/json", ...init.headers },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  const text = await res.text();
  let body: any;
  try {
    body = JSON.parse(text);
  } catch {
    body = text;
  }
  return { status: res.status, headers: res.headers, body };
}
const submit = (endpointId: string, input: Record<string, unknown>, query = "", base?: string) =>
  call(`/${endpointId}${query}`, { body: input, base });
const requestPath = (appId: string, id: string) => `/${appId}/requests/${id}`;

describe("queue protocol", () => {
  test("submit → status IN_QUEUE → IN_PROGRESS with logs → COMPLETED → result with real media served by the simulator", async () => {
    const sub = await submit("fal-ai/flux/dev", {
      prompt: "a lighthouse [latency:2000]",
      num_inference_steps: 4,
      image_size: "square",
      output_format: "png",
    });
    expect(sub.status).toBe(200);
    const id = sub.body.request_id;
    const base = `${sim.base}/fal-ai/flux/requests/${id}`;
    expect(sub.body).toEqual({
      request_id: id,
      gateway_request_id: id,
      status: "IN_QUEUE",
      queue_position: 1,
      response_url: base,
      status_url: `${base}/status`,
      cancel_url: `${base}/cancel`,
    });

    const queued = await call(`${requestPath("fal-ai/flux", id)}/status?logs=1`);
    expect(queued).toMatchObject({
      status: 202,
      body: { status: "IN_QUEUE", request_id: id, queue_position: 1, status_url: `${base}/status` },
    });
    const early = await call(requestPath("fal-ai/flux", id));
    expect(early).toMatchObject({ status: 400, body: { detail: "Request is still in progress" } });
    expect(early.headers.get("x-fal-request-id")).toBe(id);

    clock += 1000;
    const running = await call(`${requestPath("fal-ai/flux", id)}/status?logs=1`);
    expect(running).toMatchObject({ status: 202, body: { status: "IN_PROGRESS" } });
    expect(running.body.logs[0]).toEqual({
      message: "Runner acquired; loading fal-ai/flux/dev",
      level: "INFO",
      source: "USER",
      timestamp: expect.any(String),
    });
    expect((await call(`${requestPath("fal-ai/flux", id)}/status?logs=0`)).body.logs).toBeNull();

    clock += 1000;
    const done = await call(`${requestPath("fal-ai/flux", id)}/status?logs=1`);
    expect(done).toMatchObject({ status: 200, body: { status: "COMPLETED", metrics: { inference_time: 1.6 } } });
    expect(done.body.logs.map((l: { message: string }) => l.message)).toEqual([
      "Runner acquired; loading fal-ai/flux/dev",
      "Step 1/4",
      "Step 2/4",
      "Step 3/4",
      "Step 4/4",
      "Generation finished; uploading outputs",
    ]);
    expect(done.body).not.toHaveProperty("error");

    const result = await call(requestPath("fal-ai/flux", id));
    expect(result.status).toBe(200);
    expect(result.headers.get("x-fal-request-id")).toBe(id);
    expect(result.body).toMatchObject({
      seed: expect.any(Number),
      has_nsfw_concepts: [false],
      images: [{ width: 512, height: 512, content_type: "image/png" }],
    });
    const image = result.body.images[0];
    expect(image.url.startsWith(`${sim.base}/sim/image/`)).toBe(true);
    const media = await fetch(image.url);
    expect(media.headers.get("content-type")).toBe("image/png");
    const bytes = Buffer.from(await media.arrayBuffer());
    expect(bytes.byteLength).toBe(image.file_size);
    expect(await sharp(bytes).metadata()).toMatchObject({ format: "png", width: 512, height: 512 });
    expect((await fetch(image.url.replace(/sig=[0-9a-f]{4}/, "sig=0000"))).status).toBe(404);
  });

  test("the subpath rule: status, result and cancel take owner/app only; a full endpoint id finds nothing", async () => {
    const id = (await submit("fal-ai/flux/dev", { prompt: "p" })).body.request_id;
    expect(await call(`/fal-ai/flux/dev/requests/${id}/status`)).toMatchObject({ status: 404, body: { detail: "Request not found" } });
    expect(await call(`/fal-ai/flux/dev/requests/${id}/cancel`, { method: "PUT" })).toMatchObject({
      status: 404,
      body: { status: "NOT_FOUND" },
    });
    expect((await call(`${requestPath("fal-ai/flux", id)}/status`)).status).toBe(200);
    const ns = (await submit("workflows/me/wf/sub", { prompt: "p" })).body;
    expect(ns.status_url).toBe(`${sim.base}/workflows/me/wf/requests/${ns.request_id}/status`);
    expect((await call(`${requestPath("workflows/me/wf", ns.request_id)}`)).status).toBe(200);
  });

  test("a model failure completes with its error; the result is a 422 with fal's detail", async () => {
    const id = (await submit("fal-ai/flux/dev", { prompt: "nsfw [fail:generation:content_policy_violation]" })).body.request_id;
    expect((await call(`${requestPath("fal-ai/flux", id)}/status`)).body).toMatchObject({
      status: "COMPLETED",
      error: "Invalid status code: 422",
      error_type: "content_policy_violation",
    });
    const result = await call(requestPath("fal-ai/flux", id));
    expect(result).toMatchObject({ status: 422, body: { detail: [{ loc: ["body", "prompt"], type: "content_policy_violation" }] } });
    expect(result.headers.get("x-fal-request-id")).toBe(id);
  });

  test("cancel: a queued request is removed, a running one is asked to stop, a finished one stays", async () => {
    const cancel = (id: string) => call(`${requestPath("fal-ai/flux", id)}/cancel`, { method: "PUT" });
    const queued = (await submit("fal-ai/flux/dev", { prompt: "[latency:10000]" })).body.request_id;
    expect(await cancel(queued)).toMatchObject({ status: 200, body: { status: "OK" } });
    expect((await call(`${requestPath("fal-ai/flux", queued)}/status`)).body).toMatchObject({
      status: "COMPLETED",
      error_type: "request_cancelled",
    });
    expect(await call(requestPath("fal-ai/flux", queued))).toMatchObject({ status: 400, body: { detail: "Request was cancelled" } });
    const running = (await submit("fal-ai/flux/dev", { prompt: "[latency:10000]" })).body.request_id;
    clock += 5000;
    expect(await cancel(running)).toMatchObject({ status: 202, body: { status: "CANCELLATION_REQUESTED" } });
    const done = (await submit("fal-ai/flux/dev", { prompt: "quick" })).body.request_id;
    expect(await cancel(done)).toMatchObject({ status: 400, body: { status: "ALREADY_COMPLETED" } });
    expect(await cancel("00000000-0000-0000-0000-000000000000")).toMatchObject({ status: 404, body: { status: "NOT_FOUND" } });
  });

  test("[fail:timeout] starts and never finishes", async () => {
    const id = (await submit("fal-ai/flux/dev", { prompt: "[fail:timeout]" })).body.request_id;
    clock += 24 * 3600 * 1000;
    expect((await call(`${requestPath("fal-ai/flux", id)}/status`)).body.status).toBe("IN_PROGRESS");
    expect((await call(requestPath("fal-ai/flux", id))).status).toBe(400);
  });

  test("the status stream sends each change as an SSE data event and closes after COMPLETED", async () => {
    const live = await new FalSimulator({ key: KEY, settings: instant }).listen();
    try {
      const id = (await submit("fal-ai/flux/dev", { prompt: "[latency:600]" }, "", live.base)).body.request_id;
      const res = await fetch(`${live.base}${requestPath("fal-ai/flux", id)}/status/stream?logs=1`, { headers: auth });
      expect(res.headers.get("content-type")).toBe("text/event-stream");
      const events = (await res.text())
        .split("\n\n")
        .filter((e) => e.startsWith("data: "))
        .map((e) => JSON.parse(e.slice(6)));
      expect(events.at(-1)).toMatchObject({ status: "COMPLETED", request_id: id });
      expect(events.filter((e) => e.status === "COMPLETED")).toHaveLength(1);
    } finally {
      await live.close();
    }
  });
});

describe("auth", () => {
  test("queue calls need `Key <FAL_KEY>`: none, another or a Bearer one is 401; the model list and the JWKS need none", async () => {
    for (const headers of [{ authorization: "" }, { authorization: "Key wrong:key" }, { authorization: `Bearer ${KEY}` }]) {
      expect(await call("/fal-ai/flux/dev", { body: { prompt: "p" }, headers })).toMatchObject({
        status: 401,
        body: { detail: "No user found for Key ID and Secret" },
      });
      expect((await call("/fal-ai/flux/requests/x/status", { headers })).status).toBe(401);
      expect((await call("/v1/models/pricing?endpoint_id=fal-ai/flux/dev", { headers })).status).toBe(401);
    }
    expect(sim.callsTo("submit").length).toBe(3);
    expect((await call("/v1/models", { headers: { authorization: "" } })).status).toBe(200);
    const jwks = await call("/.well-known/jwks.json", { headers: { authorization: "" } });
    expect(jwks).toMatchObject({ status: 200, body: { keys: [{ kty: "OKP", crv: "Ed25519", x: expect.any(String) }] } });
  });
});

describe("transient failures", () => {
  test("[fail:rate_limit] is a 429 with Retry-After; [fail:provider:1] a 503 once, then accepted, and the same prompt again fails once again", async () => {
    const limited = await submit("fal-ai/flux/dev", { prompt: "[fail:rate_limit]" });
    expect(limited).toMatchObject({ status: 429, body: { error_type: "rate_limited" } });
    expect(limited.headers.get("retry-after")).toBe("1");
    const input = { prompt: "once [fail:provider:1]" };
    const first = await submit("fal-ai/flux/dev", input);
    expect(first.status).toBe(503);
    expect(first.headers.get("retry-after")).toBe("1");
    expect(first.headers.get("x-fal-request-id")).toBeNull();
    expect((await submit("fal-ai/flux/dev", input)).status).toBe(200);
    expect((await submit("fal-ai/flux/dev", input)).status).toBe(503);
    expect((await submit("fal-ai/flux/dev", input)).status).toBe(200);
  });

  test("[fail:result:1]: the first result fetch is an ingress 503 (no request id, no detail), the next one the output", async () => {
    const id = (await submit("fal-ai/flux/dev", { prompt: "[fail:result:1]" })).body.request_id;
    const first = await call(requestPath("fal-ai/flux", id));
    expect(first.status).toBe(503);
    expect(first.headers.get("x-fal-request-id")).toBeNull();
    expect(first.body).toContain("nginx");
    expect((await call(requestPath("fal-ai/flux", id))).status).toBe(200);
  });

  test("the realistic profile: latency drawn per kind, and its error rate refuses submits with 429 or 503", async () => {
    const realistic = await new FalSimulator({
      key: KEY,
      settings: { profile: "realistic", latencyMs: 0, latencyScale: 1, errorRate: 1 },
      random: seededRandom(2),
      now: () => clock,
    }).listen();
    try {
      const statuses = new Set<number>();
      for (let i = 0; i < 12; i++) statuses.add((await submit("fal-ai/flux/dev", { prompt: "p" }, "", realistic.base)).status);
      expect(statuses).toEqual(new Set([429, 503]));
      const accepted = await submit("fal-ai/flux/dev", { prompt: "[fail:generation]" }, "", realistic.base);
      const r = realistic.request(accepted.body.request_id)!;
      expect(r.latencyMs).toBeGreaterThanOrEqual(1_000);
      expect(r.latencyMs).toBeLessThanOrEqual(4_000);
    } finally {
      await realistic.close();
    }
  });
});

describe("start deadlines: X-Fal-Request-Timeout and startDelayMs", () => {
  // Every request waits 5 s in the queue before it starts; the clock is the test's.
  let slow: FalSimulator;
  beforeAll(async () => {
    slow = await new FalSimulator({ key: KEY, settings: instant, now: () => clock, startDelayMs: 5_000 }).listen();
  });
  afterAll(async () => {
    await slow.close();
  });
  const on = (path: string, init: Parameters<typeof call>[1] = {}) => call(path, { ...init, base: slow.base });
  const deadline = (seconds: string) => ({ "x-fal-request-timeout": seconds });

  test("a request still queued when its request timeout passes ends unstarted: COMPLETED with the error, result a 504 of type user", async () => {
    const sub = await on("/fal-ai/flux/dev", { body: { prompt: "[latency:1000]" }, headers: deadline("1") });
    expect(sub.status).toBe(200);
    const id = sub.body.request_id;
    expect((await on(`${requestPath("fal-ai/flux", id)}/status`)).body).toMatchObject({ status: "IN_QUEUE" });
    clock += 999;
    expect((await on(`${requestPath("fal-ai/flux", id)}/status`)).body.status).toBe("IN_QUEUE");
    clock += 1;
    const status = await on(`${requestPath("fal-ai/flux", id)}/status?logs=1`);
    expect(status).toMatchObject({
      status: 200,
      body: { status: "COMPLETED", logs: [], metrics: { inference_time: null }, error: "Request timed out", error_type: "request_timeout" },
    });
    const result = await on(requestPath("fal-ai/flux", id));
    expect(result).toMatchObject({ status: 504, body: { detail: "Request timed out", error_type: "request_timeout" } });
    expect(result.headers.get("x-fal-request-timeout-type")).toBe("user");
    expect(result.headers.get("x-fal-error-type")).toBe("request_timeout");
    expect(await on(`${requestPath("fal-ai/flux", id)}/cancel`, { method: "PUT" })).toMatchObject({
      status: 400,
      body: { status: "ALREADY_COMPLETED" },
    });
    // It never runs: past the time it would have started and ended, it is still the same ending.
    clock += 10_000;
    expect((await on(`${requestPath("fal-ai/flux", id)}/status?logs=1`)).body).toMatchObject({ logs: [], error_type: "request_timeout" });
    expect((await on(requestPath("fal-ai/flux", id))).status).toBe(504);
    // Its webhook is fal's ERROR with the 504's body, which the client hands to the result call.
    const body = await slow.webhookBody(slow.request(id)!);
    expect(body).toMatchObject({ status: "ERROR", error: "Invalid status code: 504", payload: { error_type: "request_timeout" } });
    expect(parseFalWebhook("fal", JSON.stringify(body)).outcome).toEqual({ kind: "fetch_result", reason: "fal timed the request out" });
  });

  test("without a request timeout, or with one long enough, the request starts late and completes", async () => {
    const late = (await on("/fal-ai/flux/dev", { body: { prompt: "[latency:1000]" } })).body.request_id;
    const roomy = (await on("/fal-ai/flux/dev", { body: { prompt: "[latency:1000]" }, headers: deadline("5.5") })).body.request_id;
    clock += 5_000;
    expect((await on(`${requestPath("fal-ai/flux", late)}/status`)).body.status).toBe("IN_QUEUE");
    clock += 200;
    for (const id of [late, roomy]) expect((await on(`${requestPath("fal-ai/flux", id)}/status`)).body.status).toBe("IN_PROGRESS");
    clock += 800;
    for (const id of [late, roomy]) {
      expect((await on(`${requestPath("fal-ai/flux", id)}/status`)).body).toMatchObject({
        status: "COMPLETED",
        metrics: { inference_time: 0.8 },
      });
      expect((await on(requestPath("fal-ai/flux", id))).status).toBe(200);
    }
  });

  test("a cancel before the deadline is a cancel; an unreadable timeout is refused as fal's bad_request", async () => {
    const id = (await on("/fal-ai/flux/dev", { body: { prompt: "p" }, headers: deadline("1") })).body.request_id;
    expect(await on(`${requestPath("fal-ai/flux", id)}/cancel`, { method: "PUT" })).toMatchObject({ status: 200, body: { status: "OK" } });
    clock += 2_000;
    expect((await on(`${requestPath("fal-ai/flux", id)}/status`)).body).toMatchObject({ error_type: "request_cancelled" });
    for (const bad of ["soon", "0", "-1", ""]) {
      expect(await on("/fal-ai/flux/dev", { body: { prompt: "p" }, headers: deadline(bad) })).toMatchObject({
        status: 400,
        body: { error_type: "bad_request" },
      });
    }
  });

  test("the fal client: a start deadline sent as whole seconds; not started by then it reads expired and its result is start_deadline", async () => {
    const p = new FalProvider({ key: KEY, queueUrl: slow.queueUrl, apiUrl: slow.apiUrl, baseDelayMs: 1, sleep: async () => {} });
    const endpointId = "fal-ai/flux/dev";
    const before = slow.callsTo("result").length;
    const { providerRequestId } = await p.submit({
      endpointId,
      input: { prompt: "[latency:1000]" },
      requestId: "r",
      startDeadlineMs: 1_000,
    });
    expect(slow.callsTo("submit").at(-1)!.headers["x-fal-request-timeout"]).toBe("1");
    const ref = { endpointId, providerRequestId };
    expect(await p.status(ref)).toMatchObject({ status: "queued" });
    clock += 1_000;
    expect(await p.status(ref, { logs: true })).toEqual({
      status: "expired",
      logs: [],
      inferenceTimeMs: null,
      error: "Request timed out",
      errorType: "start_deadline",
    });
    const result = await p.result(ref);
    expect(result.ok).toBe(false);
    const error = (result as { error: ProviderUnavailableError }).error;
    expect(error).toBeInstanceOf(ProviderUnavailableError);
    expect(error).toMatchObject({ provider: "fal", operation: "result", status: 504, reason: "start_deadline", retryable: true });
    expect(slow.callsTo("result").length - before).toBe(1);
    expect(await p.cancel(ref)).toEqual({ status: "already_ended" });

    const late = await p.submit({ endpointId, input: { prompt: "[latency:1000]" }, requestId: "r2" });
    expect(slow.callsTo("submit").at(-1)!.headers["x-fal-request-timeout"]).toBeUndefined();
    const lateRef = { endpointId, providerRequestId: late.providerRequestId };
    clock += 5_200;
    expect(await p.status(lateRef)).toMatchObject({ status: "running" });
    clock += 800;
    expect(await p.status(lateRef)).toMatchObject({ status: "succeeded", inferenceTimeMs: 800 });
    expect(await p.result(lateRef)).toMatchObject({ ok: true, output: { images: [expect.objectContaining({ url: expect.any(String) })] } });
  });

  test("the fal client: a submit fal answers with its start timeout is a start_deadline refusal nothing was accepted for", async () => {
    const p = new FalProvider({ key: KEY, queueUrl: slow.queueUrl, apiUrl: slow.apiUrl, baseDelayMs: 1, sleep: async () => {} });
    const before = slow.callsTo("submit").length;
    slow.failNext("submit", {
      status: 504,
      body: { detail: "Request timed out", error_type: "request_timeout" },
      headers: { "x-fal-request-timeout-type": "user", "x-fal-error-type": "request_timeout" },
    });
    const err = await p
      .submit({ endpointId: "fal-ai/flux/dev", input: { prompt: "p" }, requestId: "r", startDeadlineMs: 200 })
      .catch((e) => e);
    expect(err).toBeInstanceOf(ProviderUnavailableError);
    expect(err).toMatchObject({ operation: "submit", status: 504, reason: "start_deadline", maybeAccepted: false });
    expect(slow.callsTo("submit").length - before).toBe(1);
    expect(slow.callsTo("submit").at(-1)!.headers["x-fal-request-timeout"]).toBe("1");
  });
});

describe("webhooks", () => {
  let receiver: Server;
  let received: { headers: Headers; body: string }[];
  let answers: number[];
  let hookUrl: string;
  let live: FalSimulator;

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
    hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/webhooks/provider`;
    live = await new FalSimulator({ key: KEY, settings: instant, webhookRetryBaseMs: 20 }).listen();
  });
  afterAll(async () => {
    await live.close();
    await new Promise<void>((r) => receiver.close(() => r()));
  });
  beforeEach(() => {
    received = [];
    answers = [];
  });
  afterEach(() => {
    live.deliveries = [];
  });

  const delivered = async (count: number) => {
    while (received.length < count) await new Promise((r) => setTimeout(r, 10));
  };

  test("on completion fal's payload is POSTed to fal_webhook, signed so the app's verifier accepts it with the JWKS", async () => {
    const sub = await submit(
      "fal-ai/flux/schnell",
      { prompt: "hook [latency:100]" },
      `?fal_webhook=${encodeURIComponent(hookUrl)}`,
      live.base,
    );
    const id = sub.body.request_id;
    await delivered(1);
    const event = await verifyProviderWebhook(received[0]!, { jwks: new JwksCache(live.jwksUrl), acceptFal: true });
    expect(event).toMatchObject({ provider: "fal", providerRequestId: id, gatewayRequestId: id, outcome: { kind: "completed" } });
    const result = await call(requestPath("fal-ai/flux", id), { base: live.base });
    expect(event.outcome).toEqual({ kind: "completed", output: result.body });
    expect(received[0]!.headers.get("x-fal-webhook-user-id")).toBe(live.userId);
  });

  test("a model failure is an ERROR payload; a refused delivery is retried, signed again, until accepted", async () => {
    answers = [500];
    await submit("fal-ai/flux/dev", { prompt: "[fail:generation]" }, `?fal_webhook=${encodeURIComponent(hookUrl)}`, live.base);
    await delivered(2);
    expect(received.map((r) => r.headers.get("x-fal-webhook-request-id"))).toEqual([
      received[0]!.headers.get("x-fal-webhook-request-id"),
      received[0]!.headers.get("x-fal-webhook-request-id"),
    ]);
    const event = await verifyProviderWebhook(received[1]!, { jwks: new JwksCache(live.jwksUrl), acceptFal: true });
    expect(event.outcome).toMatchObject({ kind: "failed", error: { status: 422, errorType: "simulated_failure" } });
    expect(JSON.parse(received[1]!.body)).toMatchObject({
      status: "ERROR",
      error: "Invalid status code: 422",
      payload: { detail: [{ type: "simulated_failure" }] },
    });
  });

  test("a request whose result fetch fails says so in its webhook; a cancelled one sends none", async () => {
    await submit("fal-ai/flux/dev", { prompt: "[fail:result:1]" }, `?fal_webhook=${encodeURIComponent(hookUrl)}`, live.base);
    await delivered(1);
    expect((await verifyProviderWebhook(received[0]!, { jwks: new JwksCache(live.jwksUrl), acceptFal: true })).outcome).toMatchObject({
      kind: "fetch_result",
    });
    const id = (await submit("fal-ai/flux/dev", { prompt: "[latency:150]" }, `?fal_webhook=${encodeURIComponent(hookUrl)}`, live.base)).body
      .request_id;
    await call(`${requestPath("fal-ai/flux", id)}/cancel`, { method: "PUT", base: live.base });
    const marker = (await submit("fal-ai/flux/dev", { prompt: "[latency:300]" }, `?fal_webhook=${encodeURIComponent(hookUrl)}`, live.base))
      .body.request_id;
    await delivered(2);
    expect(received[1]!.headers.get("x-fal-webhook-request-id")).toBe(marker);
  });
});

describe("the fal client (lib/provider/fal/provider.ts) against the simulator", () => {
  const sleeps: number[] = [];
  const client = () =>
    new FalProvider({
      key: KEY,
      queueUrl: sim.queueUrl,
      apiUrl: sim.apiUrl,
      timeoutMs: 5_000,
      maxRetries: 3,
      baseDelayMs: 1,
      maxDelayMs: 5_000,
      sleep: async (ms) => void sleeps.push(ms),
    });

  test("submit, status with logs, result and cancel, the subpath dropped", async () => {
    const p = client();
    const endpointId = "fal-ai/flux/dev";
    const { providerRequestId, queuePosition } = await p.submit({
      endpointId,
      input: { prompt: "fox [latency:2000]", num_inference_steps: 2 },
      requestId: "r1",
    });
    expect(queuePosition).toBe(1);
    const ref = { endpointId, providerRequestId };
    expect(await p.status(ref)).toEqual({ status: "queued", queuePosition: 1, logs: [] });
    await expect(p.result(ref)).rejects.toMatchObject({ reason: "not_ready", retryable: true });
    clock += 1000;
    const running = await p.status(ref, { logs: true });
    expect(running.status).toBe("running");
    expect(running.logs[0]).toMatchObject({ message: "Runner acquired; loading fal-ai/flux/dev", level: "info" });
    clock += 1000;
    expect(await p.status(ref)).toEqual({ status: "succeeded", logs: [], inferenceTimeMs: 1600, error: null, errorType: null });
    const result = await p.result(ref);
    expect(result).toMatchObject({ ok: true, output: { images: [{ width: 1024, height: 1024 }] } });
    expect(sim.callsTo("status").every((c) => c.path === `/fal-ai/flux/requests/${providerRequestId}/status`)).toBe(true);

    const later = await p.submit({ endpointId, input: { prompt: "[latency:5000]" }, requestId: "r2" });
    expect(await p.cancel({ endpointId, providerRequestId: later.providerRequestId })).toEqual({ status: "cancelled" });
    expect(await p.cancel(ref)).toEqual({ status: "already_ended" });
    expect(await p.cancel({ endpointId, providerRequestId: "00000000-0000-0000-0000-000000000000" })).toEqual({ status: "not_found" });
  });

  test("markers mean the same as on the local provider: retried 503s and 429s, a retried result, a model failure", async () => {
    const p = client();
    const endpointId = "fal-ai/flux/schnell";
    const before = sim.callsTo("submit").length;
    const { providerRequestId } = await p.submit({ endpointId, input: { prompt: "[fail:provider:2]" }, requestId: "r" });
    expect(sim.callsTo("submit").length - before).toBe(3);
    await expect(p.submit({ endpointId, input: { prompt: "[fail:rate_limit]" }, requestId: "r" })).rejects.toMatchObject({
      status: 429,
      reason: "rate_limited",
      retryable: true,
      retryAfterMs: 1000,
    });
    expect((await p.result({ endpointId, providerRequestId })).ok).toBe(true);

    const flaky = await p.submit({ endpointId, input: { prompt: "[fail:result:1]" }, requestId: "r" });
    expect((await p.result({ endpointId, providerRequestId: flaky.providerRequestId })).ok).toBe(true);
    expect(sim.callsTo("result").filter((c) => c.path.endsWith(flaky.providerRequestId))).toHaveLength(2);

    const failed = await p.submit({ endpointId, input: { prompt: "[fail:generation:content_policy_violation]" }, requestId: "r" });
    expect(await p.status({ endpointId, providerRequestId: failed.providerRequestId })).toMatchObject({
      status: "failed",
      error: "Invalid status code: 422",
      errorType: "content_policy_violation",
    });
    const result = await p.result({ endpointId, providerRequestId: failed.providerRequestId });
    expect(result).toMatchObject({ ok: false, error: { status: 422, errorType: "content_policy_violation", provider: "fal" } });
  });

  test("a wrong key is a final unauthorized rejection", async () => {
    const p = new FalProvider({ key: "wrong", queueUrl: sim.queueUrl, apiUrl: sim.apiUrl, sleep: async () => {} });
    await expect(p.submit({ endpointId: "fal-ai/flux/dev", input: { prompt: "p" }, requestId: "r" })).rejects.toMatchObject({
      status: 401,
      reason: "unauthorized",
      retryable: false,
    });
  });

  test("the Platform API lists the simulator's catalog with prices and each model's schema", async () => {
    const p = client();
    const page = await p.listModels({ limit: 50 });
    expect(page.models.map((m) => m.endpointId)).toEqual(LOCAL_MODELS.map((m) => m.endpointId));
    expect(page.models.find((m) => m.endpointId === "fal-ai/flux/dev")).toMatchObject({
      displayName: "FLUX.1 [dev]",
      category: "text-to-image",
      price: { unitPrice: "0.025", unit: "megapixel", currency: "USD" },
    });
    expect(await p.schema("fal-ai/flux/dev")).toEqual(localModelSchema("fal-ai/flux/dev"));
    expect(await p.schema("fal-ai/wizper")).toEqual(localModelSchema("fal-ai/wizper"));
    await expect(p.schema("acme/unknown")).rejects.toMatchObject({ reason: "not_found" });
  });
});
