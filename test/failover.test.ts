import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { getDb } from "@/db/client";
import { resetEnv } from "@/lib/core/env";
import { forgetCachedModels } from "@/lib/catalog/get";
import { forgetCachedRoutes, replaceModelRoutes } from "@/lib/catalog/routes";
import { ManualClock } from "@/lib/jobs/clock";
import { startTestExecutor } from "@/lib/jobs/testing";
import { resetCooldowns } from "@/lib/provider/cooldown";
import { resetProviders } from "@/lib/provider/registry";
import { resetReplicateWebhookSecret } from "@/lib/provider/replicate/secret";
import { FalSimulator } from "@/tools/fal-sim/simulator";
import { ReplicateSimulator } from "@/tools/replicate-sim/simulator";
import { POST as RUN } from "@/app/(gateway)/run/[...path]/route";
import { POST as QUEUE_POST } from "@/app/(gateway)/queue/[...path]/route";
import { POST as GENERATE } from "@/app/api/v1/generate/route";
import { POST as WEBHOOK } from "@/app/(gateway)/webhooks/provider/route";
import { GET as HEALTH } from "@/app/(gateway)/health/route";
import { balanceOf, fundedActor, jobRow, ledgerOf, pathOf } from "@/test/generation";
import { call } from "@/test/http";

/**
 * Several providers for one model, through the HTTP surface: FLUX dev routed to fal first, then
 * Replicate, both real clients against the two protocol simulators on loopback. A job moves on
 * only before it started (a refused submit, a start deadline passed in fal's queue), is charged
 * once at the catalog price whoever serves, and says who served and what was tried.
 */
const FLUX = "fal-ai/flux/dev";
const FLUX_SQUARE = 5_899; // the catalog's price for 512×512, whichever provider serves
const FAL_KEY = "fal-id:fal-secret";
const TOKEN = "r8_failover_test";
const saved = { ...process.env };
let fal: FalSimulator;
let slowFal: FalSimulator;
let replicate: ReplicateSimulator;
let jobs: Awaited<ReturnType<typeof startTestExecutor>>;

const unavailable = { status: 503, body: { detail: "Service temporarily unavailable" } };

function useFal(sim: FalSimulator) {
  Object.assign(process.env, { FAL_QUEUE_URL: sim.queueUrl, FAL_API_URL: sim.apiUrl });
  resetEnv();
  resetProviders();
}

beforeAll(async () => {
  const instant = { profile: "instant", latencyMs: 0, latencyScale: 1, errorRate: 0 } as const;
  fal = await new FalSimulator({ key: FAL_KEY, settings: instant }).listen();
  slowFal = await new FalSimulator({ key: FAL_KEY, settings: instant, startDelayMs: 60_000 }).listen();
  replicate = await new ReplicateSimulator({
    token: TOKEN,
    settings: instant,
    webhookRetryBaseMs: 10,
    deliver: (url, init) => call(WEBHOOK, "/webhooks/provider", { body: init.body, headers: init.headers }),
  }).listen();
  Object.assign(process.env, {
    PROVIDER: "fal",
    FAL_KEY,
    REPLICATE_API_TOKEN: TOKEN,
    REPLICATE_API_URL: replicate.apiUrl,
    REPLICATE_WAIT_SECONDS: "1",
    PROVIDER_START_DEADLINE_MS: "1000",
    ALLOW_PRIVATE_URLS: "true",
  });
  useFal(fal);
  resetReplicateWebhookSecret();
  await replaceModelRoutes(await getDb(), {
    modelId: FLUX,
    routes: [
      { provider: "fal", endpointId: FLUX, inputMap: {}, costRub: "1.5", enabled: true },
      {
        provider: "replicate",
        endpointId: "black-forest-labs/flux-dev",
        inputMap: { num_images: "num_outputs" },
        costRub: "2",
        enabled: true,
      },
    ],
  });
  forgetCachedModels();
  jobs = await startTestExecutor({ clock: new ManualClock() });
});
afterAll(async () => {
  jobs.uninstall();
  await replaceModelRoutes(await getDb(), { modelId: FLUX, routes: [] });
  for (const k of Object.keys(process.env)) if (!(k in saved)) delete process.env[k];
  Object.assign(process.env, saved);
  resetEnv();
  resetProviders();
  await Promise.all([fal.close(), slowFal.close(), replicate.close()]);
});
beforeEach(() => {
  useFal(fal);
  resetCooldowns();
  forgetCachedRoutes();
});

const run = (body: unknown, key: string, headers: Record<string, string> = {}) =>
  call(RUN, `/run/${FLUX}`, { params: pathOf(FLUX), body, key, headers });
const creates = (prompt: string) => replicate.callsTo("create").filter((c) => c.body.includes(prompt));

describe("failover before the job starts", () => {
  test("fal refuses the submit (503): Replicate serves at once, charged once at the catalog price; the answer says so", async () => {
    const { user, key } = await fundedActor(100);
    fal.failNext("submit", unavailable);
    const res = await run({ prompt: "fal is down [latency:100]", image_size: "square", num_images: 1 }, key);
    expect(res.status).toBe(200);
    expect(res.body.images).toHaveLength(1);
    expect(res.body.served_by).toEqual({
      provider: "replicate",
      attempts: [
        { provider: "fal", outcome: "refused", reason: expect.any(String) },
        { provider: "replicate", outcome: "served" },
      ],
    });
    expect(res.headers.get("x-gateway-served-by")).toBe("replicate");
    expect(res.headers.get("x-gateway-attempts")).toMatch(/^fal;outcome=refused;reason=[\w"-]+, replicate;outcome=served$/);
    // One submit to fal (no client retry: another route was waiting), one create at Replicate with its input names.
    expect(fal.callsTo("submit")).toHaveLength(1);
    const [create] = creates("fal is down");
    expect(JSON.parse(create!.body).input).toMatchObject({ num_outputs: 1 });
    expect(JSON.parse(create!.body).input.num_images).toBeUndefined();
    const id = res.body.request_id;
    expect(await jobRow(id)).toMatchObject({
      status: "completed",
      provider: "replicate",
      providerEndpointId: "black-forest-labs/flux-dev",
      costSettledCredits: FLUX_SQUARE,
      providerCostCredits: 5_243, // 2 ₽ per megapixel × 0.262144 MP, rounded up
    });
    expect(await ledgerOf(user.id)).toEqual([{ type: "generation_reserve", amount: -FLUX_SQUARE, generationId: id }]);
    expect(await balanceOf(user.id)).toBe(1_000_000 - FLUX_SQUARE);
  });

  test("a refusal cools fal down: the next job goes to Replicate first", async () => {
    const { key } = await fundedActor(100);
    fal.failNext("submit", unavailable);
    expect((await run({ prompt: "first [latency:50]", image_size: "square" }, key)).body.served_by.provider).toBe("replicate");
    const before = fal.callsTo("submit").length;
    const second = await run({ prompt: "second [latency:50]", image_size: "square" }, key);
    expect(second.body.served_by).toEqual({ provider: "replicate", attempts: [{ provider: "replicate", outcome: "served" }] });
    expect(fal.callsTo("submit").length).toBe(before);
    // /health says so, with the time left.
    const health = await call(HEALTH, "/health");
    expect(health.body.parts.providers.cooldowns).toEqual([
      { provider: "fal", retryAfterMs: expect.any(Number), reason: expect.any(String) },
    ]);
  });

  test("both refuse: 503 provider_error with Retry-After; reserved and refunded, nothing charged", async () => {
    const { user, key } = await fundedActor(100);
    fal.failNext("submit", unavailable);
    replicate.failNext("create", { status: 503, body: { title: "Service Unavailable", detail: "down", status: 503 } });
    const res = await run({ prompt: "all down", image_size: "square" }, key);
    expect(res.status).toBe(503);
    expect(res.body).toMatchObject({ error: "provider_error" });
    expect(res.headers.get("retry-after")).toMatch(/^\d+$/);
    expect(res.headers.get("x-gateway-attempts")).toMatch(/^fal;outcome=refused.*, replicate;outcome=failed$/);
    expect((await ledgerOf(user.id)).map((t) => t.type)).toEqual(["generation_reserve", "generation_refund"]);
    expect(await balanceOf(user.id)).toBe(1_000_000);
  });

  test("allow_fallbacks false: fal's refusal is the answer (provider_error, refunded); Replicate is never asked", async () => {
    const { user, key } = await fundedActor(100);
    fal.failNext("submit", unavailable, unavailable, unavailable, unavailable, unavailable);
    const res = await run({ prompt: "pinned to fal", image_size: "square" }, key, {
      "X-Gateway-Provider": '{"order":["fal"],"allow_fallbacks":false}',
    });
    expect(res.status).toBe(502);
    expect(res.body).toMatchObject({ error: "provider_error" });
    expect(creates("pinned to fal")).toHaveLength(0);
    expect((await ledgerOf(user.id)).map((t) => t.type)).toEqual(["generation_reserve", "generation_refund"]);
    expect(await balanceOf(user.id)).toBe(1_000_000);
  });

  test("fal takes the job but does not start it by the deadline: dropped there unstarted, Replicate serves, charged once", async () => {
    useFal(slowFal);
    const { user, key } = await fundedActor(100);
    const res = await run({ prompt: "fal is slow to start [latency:100]", image_size: "square" }, key);
    expect(res.status).toBe(200);
    expect(res.body.served_by).toEqual({
      provider: "replicate",
      attempts: [
        { provider: "fal", outcome: "not_started", reason: "start_deadline" },
        { provider: "replicate", outcome: "served" },
      ],
    });
    const submit = slowFal.callsTo("submit").at(-1)!;
    expect(submit.headers["x-fal-request-timeout"]).toBe("1");
    expect(await ledgerOf(user.id)).toEqual([{ type: "generation_reserve", amount: -FLUX_SQUARE, generationId: res.body.request_id }]);
  });

  test("a queued job refused by fal is created at Replicate and ended by its signed webhook; charged once", async () => {
    const { user, key } = await fundedActor(100);
    fal.failNext("submit", unavailable);
    const submitted = await call(QUEUE_POST, `/queue/${FLUX}`, {
      params: pathOf(FLUX),
      body: { prompt: "queued failover [latency:300]", image_size: "square" },
      key,
    });
    const id = submitted.body.requestId;
    await jobs.drain();
    for (let i = 0; i < 100 && (await jobRow(id)).status !== "completed"; i++) await new Promise((r) => setTimeout(r, 50));
    expect(await jobRow(id)).toMatchObject({
      status: "completed",
      provider: "replicate",
      attempts: [expect.objectContaining({ provider: "fal", outcome: "refused" })],
    });
    expect(JSON.parse(creates("queued failover")[0]!.body)).toMatchObject({ webhook: "http://localhost:3000/webhooks/provider" });
    await jobs.runUntilIdle({ withinMs: 60 * 60_000 });
    expect(await ledgerOf(user.id)).toEqual([{ type: "generation_reserve", amount: -FLUX_SQUARE, generationId: id }]);
  });
});

describe("steering", () => {
  test("the skill body's provider.only runs on Replicate alone", async () => {
    const { key } = await fundedActor(100);
    const res = await call(GENERATE, "/api/v1/generate", {
      key,
      body: {
        model: FLUX,
        input: { prompt: "only replicate [latency:50]", image_size: "square" },
        sync: true,
        provider: { only: ["replicate"] },
      },
    });
    expect(res.status).toBe(200);
    expect(res.body.served_by).toEqual({ provider: "replicate", attempts: [{ provider: "replicate", outcome: "served" }] });
  });

  test("preferences that leave no provider, or name none: 400 before anything is charged", async () => {
    const { user, key } = await fundedActor(100);
    const none = await run({ prompt: "x", image_size: "square" }, key, { "X-Gateway-Provider": '{"only":["local"]}' });
    expect(none.status).toBe(400);
    expect(none.body).toMatchObject({ error: "invalid_body" });
    const bad = await run({ prompt: "x", image_size: "square" }, key, { "X-Gateway-Provider": "acme" });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ error: "invalid_params" });
    expect(await ledgerOf(user.id)).toEqual([]);
  });
});
