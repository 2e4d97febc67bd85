import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { FakeFal, falOpenApi } from "@/test/servers/fal";
import { ModelFailedError, ProviderRejectedError, ProviderUnavailableError } from "../errors";
import { FalProvider, falAppId } from "./provider";

let fal: FakeFal;
let sleeps: number[];

beforeAll(async () => {
  fal = await FakeFal.start();
});
afterAll(async () => {
  await fal.close();
});
beforeEach(() => {
  fal.calls = [];
  sleeps = [];
});

function client(overrides: ConstructorParameters<typeof FalProvider>[0] = {}) {
  return new FalProvider({
    key: fal.key,
    queueUrl: fal.queueUrl,
    apiUrl: fal.apiUrl,
    timeoutMs: 2_000,
    maxRetries: 3,
    baseDelayMs: 1,
    maxDelayMs: 5_000,
    sleep: async (ms) => {
      sleeps.push(ms);
    },
    ...overrides,
  });
}

async function caught(promise: Promise<unknown>): Promise<any> {
  try {
    await promise;
  } catch (err) {
    return err;
  }
  throw new Error("expected a rejection");
}

describe("success", () => {
  test("submit posts the input to the full endpoint id with the key, the webhook and a one-day media lifetime", async () => {
    const submitted = await client().submit({
      endpointId: "fal-ai/flux/dev",
      input: { prompt: "a red fox" },
      webhookUrl: "https://gw.example/webhooks/provider?x=1",
      requestId: "req-1",
    });
    expect(submitted.providerRequestId).toMatch(/^[0-9a-f-]{36}$/);
    expect(typeof submitted.queuePosition).toBe("number");
    const [call] = fal.callsTo("submit");
    expect(call).toMatchObject({ method: "POST", path: "/queue/fal-ai/flux/dev" });
    expect(call!.headers.authorization).toBe(`Key ${fal.key}`);
    expect(call!.query.get("fal_webhook")).toBe("https://gw.example/webhooks/provider?x=1");
    expect(JSON.parse(call!.body)).toEqual({ prompt: "a red fox" });
    expect(JSON.parse(call!.headers["x-fal-object-lifecycle-preference"] as string)).toEqual({ expiration_duration_seconds: 86400 });
  });

  test("status, result and cancel drop the subpath; status walks queued → running → succeeded with logs", async () => {
    const p = client();
    fal.behaviour("fal-ai/flux/dev", { output: { images: [{ url: "https://cdn/x.png" }], seed: 7 } });
    const { providerRequestId } = await p.submit({ endpointId: "fal-ai/flux/dev", input: { prompt: "x" }, requestId: "r" });
    const ref = { endpointId: "fal-ai/flux/dev", providerRequestId };
    expect(await p.status(ref)).toEqual({ status: "queued", queuePosition: 0, logs: [] });
    const running = await p.status(ref, { logs: true });
    expect(running.status).toBe("running");
    expect(running.logs[0]).toMatchObject({ message: "Loading model", level: "info" });
    expect(await p.status(ref)).toMatchObject({ status: "succeeded", inferenceTimeMs: 1250, error: null });
    expect(fal.callsTo("status").map((c) => `${c.path}?logs=${c.query.get("logs")}`)).toEqual([
      `/queue/fal-ai/flux/requests/${providerRequestId}/status?logs=0`,
      `/queue/fal-ai/flux/requests/${providerRequestId}/status?logs=1`,
      `/queue/fal-ai/flux/requests/${providerRequestId}/status?logs=0`,
    ]);
    expect(await p.result(ref)).toEqual({ ok: true, output: { images: [{ url: "https://cdn/x.png" }], seed: 7 } });
    expect(fal.callsTo("result")[0]!.path).toBe(`/queue/fal-ai/flux/requests/${providerRequestId}`);
  });

  test("namespaced endpoint ids keep their namespace segment", async () => {
    expect(falAppId("workflows/me/wf/sub")).toBe("workflows/me/wf");
    expect(falAppId("fal-ai/flux/dev")).toBe("fal-ai/flux");
    expect(falAppId("fal-ai/flux")).toBe("fal-ai/flux");
    expect(falAppId("123-myapp")).toBe("123/myapp");
    const p = client();
    const { providerRequestId } = await p.submit({ endpointId: "workflows/me/wf/sub", input: {}, requestId: "r" });
    await p.status({ endpointId: "workflows/me/wf/sub", providerRequestId });
    expect(fal.callsTo("status")[0]!.path).toBe(`/queue/workflows/me/wf/requests/${providerRequestId}/status`);
  });

  test("cancel reports each outcome fal can give", async () => {
    const p = client();
    const sub = async () => ({
      endpointId: "fal-ai/cancel/me",
      providerRequestId: (await p.submit({ endpointId: "fal-ai/cancel/me", input: {}, requestId: "r" })).providerRequestId,
    });
    const queued = await sub();
    expect(await p.cancel(queued)).toEqual({ status: "cancelled" });
    const running = await sub();
    await p.status(running);
    await p.status(running);
    expect(await p.cancel(running)).toEqual({ status: "cancel_requested" });
    const done = await sub();
    await fal.complete(done.providerRequestId);
    expect(await p.cancel(done)).toEqual({ status: "already_ended" });
    expect(await p.cancel({ endpointId: "fal-ai/cancel/me", providerRequestId: "00000000-0000-0000-0000-000000000000" })).toEqual({
      status: "not_found",
    });
  });

  test("schema turns the model's OpenAPI document into standalone input and output JSON Schemas", async () => {
    fal.models = [
      {
        endpointId: "fal-ai/flux/dev",
        metadata: { display_name: "FLUX.1 [dev]", category: "text-to-image", description: "d", status: "active", tags: [] },
        openapi: falOpenApi(
          "fal-ai/flux/dev",
          "FluxDev",
          {
            type: "object",
            required: ["prompt"],
            properties: { prompt: { type: "string" }, image_size: { $ref: "#/components/schemas/ImageSize" } },
          },
          {
            type: "object",
            properties: { images: { type: "array", items: { $ref: "#/components/schemas/Image" } }, seed: { type: "integer" } },
          },
          {
            ImageSize: { type: "object", properties: { width: { type: "integer" } } },
            Image: { type: "object", properties: { url: { type: "string" } } },
          },
        ),
      },
    ];
    const schema = await client().schema("fal-ai/flux/dev");
    expect(schema.input).toEqual({
      title: "FluxDevInput",
      type: "object",
      required: ["prompt"],
      properties: { prompt: { type: "string" }, image_size: { $ref: "#/$defs/ImageSize" } },
      $defs: { ImageSize: { type: "object", properties: { width: { type: "integer" } } } },
    });
    expect(schema.output).toMatchObject({
      title: "FluxDevOutput",
      properties: { images: { items: { $ref: "#/$defs/Image" } } },
      $defs: { Image: {} },
    });
    expect(fal.callsTo("models")[0]!.query.getAll("expand")).toEqual(["openapi-3.0"]);
    const missing = await caught(client().schema("fal-ai/nope"));
    expect(missing).toBeInstanceOf(ProviderRejectedError);
    expect(missing.reason).toBe("not_found");
  });

  test("listModels pages through the catalog with exact decimal prices", async () => {
    fal.models = Array.from({ length: 3 }, (_, i) => ({
      endpointId: `fal-ai/m${i}`,
      metadata: {
        display_name: `M${i}`,
        category: "text-to-image",
        description: `model ${i}`,
        status: "active",
        tags: ["t"],
        thumbnail_url: "https://t/x.jpg",
      },
      price: i === 2 ? undefined : { unit_price: i === 0 ? 0.025 : 0.0000003, unit: "image" },
    }));
    const p = client();
    const first = await p.listModels({ limit: 2 });
    expect(first.models).toEqual([
      {
        endpointId: "fal-ai/m0",
        displayName: "M0",
        category: "text-to-image",
        description: "model 0",
        status: "active",
        tags: ["t"],
        thumbnailUrl: "https://t/x.jpg",
        licenseType: null,
        price: { unitPrice: "0.025", unit: "image", currency: "USD" },
      },
      expect.objectContaining({ endpointId: "fal-ai/m1", price: { unitPrice: "0.0000003", unit: "image", currency: "USD" } }),
    ]);
    expect(first.nextCursor).not.toBeNull();
    const second = await p.listModels({ limit: 2, cursor: first.nextCursor });
    expect(second).toEqual({ models: [expect.objectContaining({ endpointId: "fal-ai/m2", price: null })], nextCursor: null });
    expect(fal.callsTo("pricing")[0]!.query.getAll("endpoint_id")).toEqual(["fal-ai/m0", "fal-ai/m1"]);
  });

  test("without a key the catalog is listed without prices (pricing needs a key)", async () => {
    fal.models = [{ endpointId: "fal-ai/m0", price: { unit_price: 1, unit: "image" } }];
    const page = await client({ key: "" }).listModels();
    expect(page.models).toEqual([expect.objectContaining({ endpointId: "fal-ai/m0", displayName: "fal-ai/m0", price: null })]);
    expect(fal.callsTo("pricing")).toHaveLength(0);
  });
});

describe("model failures", () => {
  test("a 422 from the model comes back as a typed failure with fal's detail", async () => {
    const detail = [{ loc: ["body", "prompt"], msg: "String should have at most 2500 characters", type: "string_too_long" }];
    fal.behaviour("fal-ai/strict", { error: { status: 422, body: { detail } } });
    const p = client();
    const { providerRequestId } = await p.submit({ endpointId: "fal-ai/strict", input: {}, requestId: "r" });
    await fal.complete(providerRequestId);
    const result = await p.result({ endpointId: "fal-ai/strict", providerRequestId });
    expect(result.ok).toBe(false);
    const error = (result as { error: ModelFailedError }).error;
    expect(error).toBeInstanceOf(ModelFailedError);
    expect(error).toMatchObject({
      status: 422,
      detail,
      errorType: "string_too_long",
      message: "prompt: String should have at most 2500 characters",
    });
  });

  test("a 5xx carrying the request's own error is final, not retried", async () => {
    fal.behaviour("fal-ai/crashy", {
      error: {
        status: 504,
        body: { detail: "Request timed out", error_type: "request_timeout" },
        headers: { "x-fal-error-type": "request_timeout" },
      },
    });
    const p = client();
    const { providerRequestId } = await p.submit({ endpointId: "fal-ai/crashy", input: {}, requestId: "r" });
    await fal.complete(providerRequestId);
    const result = await p.result({ endpointId: "fal-ai/crashy", providerRequestId });
    expect(result).toMatchObject({ ok: false, error: { status: 504, errorType: "request_timeout", message: "Request timed out" } });
    expect(fal.callsTo("result")).toHaveLength(1);
  });

  test("a submit refused with 422 is the model rejecting the input", async () => {
    fal.failNext("submit", { status: 422, body: { detail: [{ loc: ["body", "num_images"], msg: "too many", type: "value_error" }] } });
    const err = await caught(client().submit({ endpointId: "fal-ai/flux/dev", input: { num_images: 9 }, requestId: "r" }));
    expect(err).toBeInstanceOf(ModelFailedError);
    expect(err.message).toBe("num_images: too many");
  });

  test("a result fetched before completion is a retryable not_ready, never a model failure", async () => {
    const p = client();
    const { providerRequestId } = await p.submit({ endpointId: "fal-ai/slow", input: {}, requestId: "r" });
    const err = await caught(p.result({ endpointId: "fal-ai/slow", providerRequestId }));
    expect(err).toBeInstanceOf(ProviderUnavailableError);
    expect(err.reason).toBe("not_ready");
  });
});

describe("retries", () => {
  test("submit refused with 503 then accepted: retried with backoff, one request queued", async () => {
    fal.failNext("submit", { status: 503, body: { detail: "busy" } }, { status: 502, body: "Bad Gateway" });
    const submitted = await client().submit({ endpointId: "fal-ai/flux/dev", input: {}, requestId: "r" });
    expect(fal.callsTo("submit")).toHaveLength(3);
    expect(fal.request(submitted.providerRequestId)).toBeDefined();
    expect(sleeps).toHaveLength(2);
  });

  test("a 429 waits at least its Retry-After before trying again", async () => {
    fal.failNext("submit", { status: 429, body: { detail: "rate" }, headers: { "retry-after": "2" } });
    await client().submit({ endpointId: "fal-ai/flux/dev", input: {}, requestId: "r" });
    expect(sleeps[0]).toBeGreaterThanOrEqual(2000);
  });

  test("a Retry-After longer than we block for is handed back to the engine at once", async () => {
    fal.failNext("submit", { status: 429, body: {}, headers: { "retry-after": "120" } });
    const err = await caught(client().submit({ endpointId: "fal-ai/flux/dev", input: {}, requestId: "r" }));
    expect(err).toBeInstanceOf(ProviderUnavailableError);
    expect(err).toMatchObject({ status: 429, retryAfterMs: 120_000, reason: "rate_limited", retryable: true });
    expect(fal.callsTo("submit")).toHaveLength(1);
  });

  test("retries are bounded: persistent 503 ends in a retryable error after maxRetries", async () => {
    fal.failNext("status", ...Array.from({ length: 4 }, () => ({ status: 503, body: { detail: "down" } })));
    const err = await caught(client().status({ endpointId: "fal-ai/x", providerRequestId: "id" }));
    expect(err).toMatchObject({ status: 503, retryable: true, operation: "status" });
    expect(fal.callsTo("status")).toHaveLength(4);
    expect(sleeps).toHaveLength(3);
  });

  test("a submit whose connection dies after fal accepted it is not re-submitted", async () => {
    const before = fal.callsTo("submit").length;
    fal.failNext("submit", "accept-then-drop");
    const err = await caught(client().submit({ endpointId: "fal-ai/flux/dev", input: {}, requestId: "r" }));
    expect(err).toBeInstanceOf(ProviderUnavailableError);
    expect(err.maybeAccepted).toBe(true);
    expect(fal.callsTo("submit").length - before).toBe(1);
  });

  test("a submit that times out is not re-submitted either", async () => {
    fal.failNext("submit", "hang");
    const err = await caught(client({ timeoutMs: 200 }).submit({ endpointId: "fal-ai/flux/dev", input: {}, requestId: "r" }));
    expect(err).toMatchObject({ reason: "timeout", maybeAccepted: true });
    expect(fal.callsTo("submit")).toHaveLength(1);
  });

  test("reads are retried after a dropped connection and a timeout", async () => {
    // The file's usual timeout, not a short one: the calls that should answer must not time out
    // on a busy machine too (each would be one more call); only the hang waits it out.
    const p = client();
    const { providerRequestId } = await p.submit({ endpointId: "fal-ai/flux/dev", input: {}, requestId: "r" });
    fal.failNext("status", "drop", "hang", { status: 500, body: { detail: "oops" } });
    expect((await p.status({ endpointId: "fal-ai/flux/dev", providerRequestId })).status).toBe("queued");
    expect(fal.callsTo("status")).toHaveLength(4);
  });

  test("a refused connection is retried even for a submit (nothing was sent), then reported", async () => {
    const closed = await FakeFal.start();
    const url = closed.queueUrl;
    await closed.close();
    const err = await caught(client({ queueUrl: url }).submit({ endpointId: "fal-ai/flux/dev", input: {}, requestId: "r" }));
    expect(err).toMatchObject({ reason: "network", maybeAccepted: false, retryable: true });
    expect(sleeps).toHaveLength(3);
  });

  test("a 504 that is the caller's own start timeout is not retried: the start deadline passed, nothing was accepted", async () => {
    fal.failNext("submit", { status: 504, body: { detail: "timeout" }, headers: { "x-fal-request-timeout-type": "user" } });
    const err = await caught(client().submit({ endpointId: "fal-ai/flux/dev", input: {}, requestId: "r", startDeadlineMs: 1_000 }));
    expect(err).toBeInstanceOf(ProviderUnavailableError);
    expect(err).toMatchObject({ operation: "submit", status: 504, reason: "start_deadline", maybeAccepted: false, retryable: true });
    expect(fal.callsTo("submit")).toHaveLength(1);
    expect(fal.callsTo("submit")[0]!.headers["x-fal-request-timeout"]).toBe("1");
  });

  test("a 504 on result that is the start timeout is the job's ending, not retried: start_deadline", async () => {
    const p = client();
    const { providerRequestId } = await p.submit({ endpointId: "fal-ai/flux/dev", input: {}, requestId: "r", startDeadlineMs: 1_500 });
    expect(fal.callsTo("submit")[0]!.headers["x-fal-request-timeout"]).toBe("2");
    await fal.complete(providerRequestId);
    // Without fal's request id on it, as an ingress answer would come: the timeout type alone tells.
    fal.failNext("result", {
      status: 504,
      body: { detail: "Request timed out", error_type: "request_timeout" },
      headers: { "x-fal-request-timeout-type": "user" },
    });
    const result = await p.result({ endpointId: "fal-ai/flux/dev", providerRequestId });
    expect(result.ok).toBe(false);
    expect((result as { error: ProviderUnavailableError }).error).toBeInstanceOf(ProviderUnavailableError);
    expect((result as { error: ProviderUnavailableError }).error).toMatchObject({
      operation: "result",
      status: 504,
      reason: "start_deadline",
    });
    expect(fal.callsTo("result")).toHaveLength(1);
  });

  test("without a start deadline no X-Fal-Request-Timeout is sent", async () => {
    await client().submit({ endpointId: "fal-ai/flux/dev", input: {}, requestId: "r" });
    expect(fal.callsTo("submit")[0]!.headers["x-fal-request-timeout"]).toBeUndefined();
  });

  test("a 503 on result without the request's own error is retried", async () => {
    const p = client();
    const { providerRequestId } = await p.submit({ endpointId: "fal-ai/flux/dev", input: {}, requestId: "r" });
    await fal.complete(providerRequestId);
    fal.failNext("result", { status: 503, body: "<html>nginx</html>" });
    expect((await p.result({ endpointId: "fal-ai/flux/dev", providerRequestId })).ok).toBe(true);
    expect(fal.callsTo("result")).toHaveLength(2);
  });
});

describe("auth and protocol errors", () => {
  test("a wrong key is a final rejection, not retried", async () => {
    const err = await caught(client({ key: "wrong" }).submit({ endpointId: "fal-ai/flux/dev", input: {}, requestId: "r" }));
    expect(err).toBeInstanceOf(ProviderRejectedError);
    expect(err).toMatchObject({ status: 401, reason: "unauthorized", retryable: false });
    expect(fal.callsTo("submit")).toHaveLength(1);
  });

  test("an answer of the wrong shape is rejected by validation", async () => {
    fal.failNext("submit", { status: 200, body: { queue_position: 1 } });
    const err = await caught(client().submit({ endpointId: "fal-ai/flux/dev", input: {}, requestId: "r" }));
    expect(err).toMatchObject({ reason: "bad_response" });
    fal.failNext("status", { status: 200, body: "not json" });
    expect(await caught(client().status({ endpointId: "fal-ai/flux/dev", providerRequestId: "x" }))).toMatchObject({
      reason: "bad_response",
    });
  });

  test("an unknown request id is a not_found rejection", async () => {
    const err = await caught(client().status({ endpointId: "fal-ai/flux/dev", providerRequestId: "nope" }));
    expect(err).toMatchObject({ status: 404, reason: "not_found" });
  });
});
