import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { getDb } from "@/db/client";
import { inboundEvents, models } from "@/db/schema";
import { resetEnv } from "@/lib/core/env";
import { forgetCachedModels } from "@/lib/catalog/get";
import { ManualClock } from "@/lib/jobs/clock";
import { startTestExecutor } from "@/lib/jobs/testing";
import { resetProviders } from "@/lib/provider/registry";
import { resetReplicateWebhookSecret } from "@/lib/provider/replicate/secret";
import { ReplicateSimulator } from "@/tools/replicate-sim/simulator";
import { POST as RUN } from "@/app/(gateway)/run/[...path]/route";
import { GET as QUEUE_GET, POST as QUEUE_POST } from "@/app/(gateway)/queue/[...path]/route";
import { POST as WEBHOOK } from "@/app/(gateway)/webhooks/provider/route";
import { activityOf, balanceOf, fundedActor, jobRow, ledgerOf, pathOf } from "@/test/generation";
import { call } from "@/test/http";

/**
 * The gateway with PROVIDER=replicate, through its HTTP surface, on the real Replicate client
 * against the Replicate-protocol simulator over loopback (tools/replicate-sim): a sync run held by
 * `Prefer: wait` and one polled past it, a queued job ended by Replicate's signed webhook (handed to
 * the app's webhook route in-process, as the simulator cannot reach localhost:3000), charged once.
 * Until per-model routes exist, a model runs on Replicate under its catalog alias: FLUX dev's is
 * set to Replicate's `black-forest-labs/flux-dev` here.
 */
const FLUX = "fal-ai/flux/dev";
const ON_REPLICATE = "black-forest-labs/flux-dev";
const FLUX_SQUARE = 5_899; // 2.25 ₽ per megapixel × 512×512 = 0.589824 ₽, rounded up
const TOKEN = "r8_gateway_test";
const clock = new ManualClock();
let sim: ReplicateSimulator;
let jobs: Awaited<ReturnType<typeof startTestExecutor>>;
const saved = { ...process.env };

beforeAll(async () => {
  sim = await new ReplicateSimulator({
    token: TOKEN,
    webhookRetryBaseMs: 10,
    deliver: async (url, init) => {
      expect(url).toBe("http://localhost:3000/webhooks/provider");
      return call(WEBHOOK, "/webhooks/provider", { body: init.body, headers: init.headers });
    },
  }).listen();
  Object.assign(process.env, {
    PROVIDER: "replicate",
    REPLICATE_API_TOKEN: TOKEN,
    REPLICATE_API_URL: sim.apiUrl,
    REPLICATE_WAIT_SECONDS: "1",
    ALLOW_PRIVATE_URLS: "true",
  });
  resetEnv();
  resetProviders();
  resetReplicateWebhookSecret();
  await (await getDb()).update(models).set({ alias: ON_REPLICATE }).where(eq(models.modelId, FLUX));
  forgetCachedModels();
  jobs = await startTestExecutor({ clock });
});
afterAll(async () => {
  jobs.uninstall();
  for (const k of Object.keys(process.env)) if (!(k in saved)) delete process.env[k];
  Object.assign(process.env, saved);
  resetEnv();
  resetProviders();
  await sim.close();
});

const run = (body: unknown, key: string) => call(RUN, `/run/${FLUX}`, { params: pathOf(FLUX), body, key });
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("PROVIDER=replicate through the gateway", () => {
  test("a sync run whose prediction ends inside `Prefer: wait`: one create, no poll; re-hosted, charged once", async () => {
    const { user, key } = await fundedActor(100);
    const res = await run({ prompt: "a lighthouse [latency:200]", image_size: "square", seed: 5 }, key);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      seed: 5,
      images: [
        { url: expect.stringMatching(/^http:\/\/localhost:3000\/files\/r\//), width: 512, height: 512, content_type: expect.any(String) },
      ],
    });
    const creates = sim.callsTo("create").filter((c) => c.body.includes("a lighthouse"));
    expect(creates).toHaveLength(1);
    expect(creates[0]!.path).toBe(`/v1/models/${ON_REPLICATE}/predictions`);
    expect(creates[0]!.headers.prefer).toBe("wait=1");
    expect(JSON.parse(creates[0]!.body).webhook).toBeUndefined();
    const id = res.body.request_id;
    expect(await jobRow(id)).toMatchObject({ status: "completed", provider: "replicate", costSettledCredits: FLUX_SQUARE });
    expect(await ledgerOf(user.id)).toEqual([{ type: "generation_reserve", amount: -FLUX_SQUARE, generationId: id }]);
    expect(await balanceOf(user.id)).toBe(1_000_000 - FLUX_SQUARE);
  });

  test("a sync run past the wait is polled to its end", async () => {
    const { key } = await fundedActor(100);
    const before = sim.callsTo("get").length;
    const res = await run({ prompt: "a slower lighthouse [latency:1800]", image_size: "square" }, key);
    expect(res.status).toBe(200);
    expect(res.body.images[0]).toMatchObject({ width: 512, height: 512 });
    expect(sim.callsTo("get").length).toBeGreaterThan(before);
  });

  test("the model's failure on Replicate: generation_failed, refunded", async () => {
    const { user, key } = await fundedActor(100);
    const res = await run({ prompt: "[fail:generation] [latency:50]", image_size: "square" }, key);
    expect(res.body).toMatchObject({ error: "generation_failed" });
    expect((await ledgerOf(user.id)).map((t) => t.type)).toEqual(["generation_reserve", "generation_refund"]);
    expect(await balanceOf(user.id)).toBe(1_000_000);
  });

  test("a queued job is submitted with a completed-only webhook and ended by Replicate's signed webhook; charged once", async () => {
    const { user, key } = await fundedActor(100);
    const submitted = await call(QUEUE_POST, `/queue/${FLUX}`, {
      params: pathOf(FLUX),
      body: { prompt: "a queued lighthouse [latency:400]", image_size: "square" },
      key,
    });
    expect(submitted.status).toBe(200);
    const id = submitted.body.requestId;
    await jobs.drain();
    const job = await jobRow(id);
    expect(job).toMatchObject({ provider: "replicate", providerRequestId: expect.any(String) });
    const create = sim.callsTo("create").find((c) => c.body.includes("a queued lighthouse"))!;
    expect(JSON.parse(create.body)).toMatchObject({
      webhook: "http://localhost:3000/webhooks/provider",
      webhook_events_filter: ["completed"],
    });
    expect(create.headers.prefer).toBeUndefined();
    // The simulator ends the prediction and delivers its webhook to the app's route.
    while ((await jobRow(id)).status === "queued" || (await jobRow(id)).status === "in_progress") await pause(50);
    const [inbound] = await (
      await getDb()
    )
      .select()
      .from(inboundEvents)
      .where(eq(inboundEvents.externalId, `replicate:${job.providerRequestId}`));
    // The webhook's receipt, recorded once; the job it ended is what a redelivery is answered from.
    expect(inbound).toMatchObject({ source: "provider", payload: expect.objectContaining({ status: "succeeded" }) });
    expect(await jobRow(id)).toMatchObject({ status: "completed" });
    await jobs.runUntilIdle({ withinMs: 60 * 60_000 });
    const result = await call(QUEUE_GET, `/queue/${FLUX}/requests/${id}`, { params: pathOf(FLUX, "requests", id), key });
    expect(result.status).toBe(200);
    expect(result.body.images[0]).toMatchObject({ url: expect.stringContaining("/files/r/"), width: 512, height: 512 });
    expect(await ledgerOf(user.id)).toEqual([{ type: "generation_reserve", amount: -FLUX_SQUARE, generationId: id }]);
    expect((await activityOf(id))[0]).toMatchObject({ status: "completed", credits: FLUX_SQUARE });
  });
});
