import { eq, sql } from "drizzle-orm";
import { describe, expect, test } from "vitest";
import { getDb, rawRows } from "@/db/client";
import { assets, models } from "@/db/schema";
import { createActor } from "@/test/factories";
import {
  activityOf,
  balanceOf,
  eventsOf,
  fundedActor,
  jobRow,
  jobsOf,
  ledgerOf,
  pathOf,
  simulatorRequestCount,
  simulatorRequestsFor,
} from "@/test/generation";
import { currentStorage, setStorage } from "@/lib/storage";
import { grant } from "@/test/money";
import { call } from "@/test/http";
import { POST } from "./route";
import { upsertModel } from "@/lib/catalog/admin-upsert";
import { forgetCachedModels } from "@/lib/catalog/get";

const FLUX = "fal-ai/flux/dev";
// 2.25 ₽ per megapixel × 1024×1024 (square_hd) = 2.359296 ₽ → 2.3593 ₽.
const FLUX_SQUARE_HD = 23_593;

const run = (modelId: string, body: unknown, key: string, query = "") =>
  call(POST, `/run/${modelId}${query}`, { params: pathOf(modelId), body, key });

describe("success", () => {
  test("a sync run answers the re-hosted result, charges the quote once and records activity", async () => {
    const { user, key, apiKey } = await fundedActor(100);
    const res = await run(FLUX, { prompt: "a lighthouse at dusk", seed: 7 }, key);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      request_id: expect.any(String),
      seed: 7,
      images: [
        { url: expect.stringMatching(/^http:\/\/localhost:3000\/files\/r\//), width: 1024, height: 1024, content_type: "image/jpeg" },
      ],
    });
    const id = res.body.request_id;
    expect(await balanceOf(user.id)).toBe(1_000_000 - FLUX_SQUARE_HD);
    expect(await ledgerOf(user.id)).toEqual([{ type: "generation_reserve", amount: -FLUX_SQUARE_HD, generationId: id }]);
    expect(await jobRow(id)).toMatchObject({
      status: "completed",
      mode: "sync",
      surface: "gateway",
      operation: "run",
      costReservedCredits: FLUX_SQUARE_HD,
      costSettledCredits: FLUX_SQUARE_HD,
    });
    const [record] = await activityOf(id);
    expect(record).toMatchObject({
      userId: user.id,
      apiKeyId: apiKey.id,
      modelId: FLUX,
      operation: "run",
      credits: FLUX_SQUARE_HD,
      status: "completed",
      errorCode: null,
    });
    const db = await getDb();
    const stored = await db.select().from(assets).where(eq(assets.generationId, id));
    expect(stored).toMatchObject([{ status: "stored", kind: "result", contentType: "image/jpeg", userId: user.id }]);
  });

  test("the run path keeps model rows for a moment, but an admin edit applies to the very next run", async () => {
    const { key } = await fundedActor(100);
    const db = await getDb();
    expect((await run(FLUX, { prompt: "before", image_size: { width: 256, height: 256 } }, key)).status).toBe(200);
    await upsertModel(db, { modelId: FLUX, visible: false });
    const hidden = await run(FLUX, { prompt: "hidden", image_size: { width: 256, height: 256 } }, key);
    expect(hidden.status).toBe(404);
    expect(hidden.body).toMatchObject({ error: "unknown_model" });
    await upsertModel(db, { modelId: FLUX, visible: true });
    expect((await run(FLUX, { prompt: "after", image_size: { width: 256, height: 256 } }, key)).status).toBe(200);
  });

  test("a quick run's provider id, `submitted` and `storing` are recorded with the ending: the history reads queued, submitted, storing, completed", async () => {
    const { key } = await fundedActor(100);
    const res = await run(FLUX, { prompt: "history", image_size: { width: 256, height: 256 } }, key);
    expect(res.status).toBe(200);
    const id = res.body.request_id;
    const events = await eventsOf(id);
    expect(events.filter((e) => e.kind === "progress").map((e) => e.stage)).toEqual(["queued", "submitted", "storing", "completed"]);
    expect(events.filter((e) => e.kind === "status").map((e) => e.status)).toEqual(["queued", "completed"]);
    const [submitted] = await simulatorRequestsFor(id);
    expect(submitted).toMatchObject({
      input: { prompt: "history", image_size: { width: 256, height: 256 } },
      endpointId: expect.any(String),
      submittedAt: expect.any(Date),
      webhookUrl: null,
    });
    const job = await jobRow(id);
    expect(job).toMatchObject({ status: "completed", providerRequestId: submitted!.id, submittedAt: expect.any(Date) });
    expect((await activityOf(id))[0]).toMatchObject({ providerRequestId: submitted!.id });
  });

  test("a slow run records its provider id and announces `storing` while the copy runs, each once", async () => {
    const { user, key } = await fundedActor(100);
    const storage = currentStorage()!;
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    setStorage({ ...storage, put: async (...args) => (await held, storage.put(...args)) });
    try {
      const pending = run(FLUX, { prompt: "slow copy", image_size: { width: 256, height: 256 } }, key);
      // Wait for the announcement while the copy is held (a condition, not a clock).
      let id: string | undefined;
      for (;;) {
        id = (await jobsOf(user.id))[0]?.id;
        if (id && (await eventsOf(id)).some((e) => e.stage === "storing")) break;
        await new Promise((r) => setTimeout(r, 20));
      }
      // Slow runs record their progress as it happens: the provider's id is there mid-run.
      expect(await jobRow(id)).toMatchObject({ status: expect.not.stringMatching(/^completed$/), providerRequestId: expect.any(String) });
      release();
      const res = await pending;
      expect(res.status).toBe(200);
      const stages = (await eventsOf(id)).filter((e) => e.kind === "progress").map((e) => e.stage);
      expect(stages).toEqual(["queued", "submitted", "storing", "completed"]);
    } finally {
      release();
      setStorage(undefined);
    }
  });

  test("a run slow at the provider and quick to copy writes its provider id mid-run, `storing` and the file's mark with its ending", async () => {
    const { key } = await fundedActor(100);
    const res = await run(FLUX, { prompt: "slow provider [latency:800]", image_size: { width: 256, height: 256 } }, key);
    expect(res.status).toBe(200);
    const id = res.body.request_id as string;
    // xmin: the transaction that wrote each row.
    const rows = await rawRows<{ kind: string; data: Record<string, unknown>; tx: string }>(
      await getDb(),
      sql`select kind, data, xmin::text as tx from generation_events where generation_id = ${id} order by seq`,
    );
    const txOf = (stage: string) => rows.find((r) => r.kind === "progress" && r.data.stage === stage)!.tx;
    expect(rows.filter((r) => r.kind === "progress").map((r) => r.data.stage)).toEqual(["queued", "submitted", "storing", "completed"]);
    expect(txOf("submitted")).not.toBe(txOf("completed"));
    expect(txOf("storing")).toBe(txOf("completed"));
    const [file] = await rawRows<{ status: string; tx: string }>(
      await getDb(),
      sql`select status, xmin::text as tx from assets where generation_id = ${id}`,
    );
    expect(file).toEqual({ status: "stored", tx: txOf("completed") });
  });

  test("the answer's Server-Timing times every stage of the sync path (the gateway bench reads it)", async () => {
    const { key } = await fundedActor(100);
    const res = await run(FLUX, { prompt: "timed", image_size: { width: 256, height: 256 } }, key);
    expect(res.status).toBe(200);
    const timing = res.headers.get("server-timing") ?? "";
    expect(timing.split(", ").map((part) => part.split(";")[0])).toEqual([
      "auth",
      "ratelimit",
      "parse",
      "model",
      "validate",
      "reserve",
      "submit",
      "result",
      "rehost",
      "finalize",
      "respond",
      "total",
    ]);
  });

  test("passthrough=1 answers the provider's own links and copies nothing", async () => {
    const { key } = await fundedActor(100);
    const res = await run(FLUX, { prompt: "passthrough please" }, key, "?passthrough=1");
    expect(res.status).toBe(200);
    expect(res.body.images[0].url).toMatch(/\/sim\/image\//);
    const db = await getDb();
    expect(await db.select().from(assets).where(eq(assets.generationId, res.body.request_id))).toEqual([]);
  });

  test("a sandbox (_test_) key runs on the simulator and never touches the balance", async () => {
    const { user, key } = await fundedActor(0, { sandbox: true });
    const res = await run(FLUX, { prompt: "sandboxed" }, key);
    expect(res.status).toBe(200);
    expect(await balanceOf(user.id)).toBe(0);
    expect(await ledgerOf(user.id)).toEqual([]);
    expect(await jobRow(res.body.request_id)).toMatchObject({
      sandbox: true,
      status: "completed",
      costReservedCredits: 0,
      costSettledCredits: 0,
    });
  });

  test("a dynamic price settles from the actual output: longer speech than quoted is charged the difference", async () => {
    const db = await getDb();
    const tts = "fal-ai/minimax/speech-02-hd";
    await db.update(models).set({ priceRub: "1", priceUnit: "second" }).where(eq(models.modelId, tts));
    forgetCachedModels(); // written behind the admin API's back
    const { user, key } = await fundedActor(100);
    // Quoted at the default 5 s; the simulator reads 150 characters in 10 s.
    const res = await run(tts, { text: "x".repeat(150) }, key);
    expect(res.status).toBe(200);
    expect(res.body.audio).toMatchObject({ duration: 10 });
    const id = res.body.request_id;
    expect(await ledgerOf(user.id)).toEqual([
      { type: "generation_reserve", amount: -50_000, generationId: id },
      { type: "generation_settle_charge", amount: -50_000, generationId: id },
    ]);
    expect(await jobRow(id)).toMatchObject({
      costReservedCredits: 50_000,
      costSettledCredits: 100_000,
      providerRequestId: expect.any(String),
    });
    expect((await activityOf(id))[0]).toMatchObject({ credits: 100_000 });
    // The ending that moves money (a transaction) also records what the quick run left to it.
    expect(
      await db.select({ status: assets.status, contentType: assets.contentType }).from(assets).where(eq(assets.generationId, id)),
    ).toEqual([{ status: "stored", contentType: "audio/wav" }]);
    expect((await eventsOf(id)).filter((e) => e.kind === "progress").map((e) => e.stage)).toEqual([
      "queued",
      "submitted",
      "storing",
      "completed",
    ]);

    // Shorter than quoted (15 characters → 1 s): the excess comes back.
    const short = await run(tts, { text: "y".repeat(15) }, key);
    expect(await ledgerOf(user.id)).toEqual(
      expect.arrayContaining([
        { type: "generation_reserve", amount: -50_000, generationId: short.body.request_id },
        { type: "generation_settle_refund", amount: 40_000, generationId: short.body.request_id },
      ]),
    );
    expect(await balanceOf(user.id)).toBe(1_000_000 - 100_000 - 10_000);
    await db.update(models).set({ priceRub: "9", priceUnit: "1k_chars" }).where(eq(models.modelId, tts));
    forgetCachedModels();
  });
});

describe("failures", () => {
  test("20 parallel runs against a balance that covers exactly 5: five are charged, fifteen are 402 and never reach the provider", async () => {
    const { user, key } = await fundedActor(0);
    await grant(user.id, 5 * FLUX_SQUARE_HD);
    const before = await simulatorRequestCount();
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => run(FLUX, { prompt: `parallel ${i}` }, key)));
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses).toEqual([...Array(5).fill(200), ...Array(15).fill(402)]);
    expect(answers.filter((a) => a.status === 402).every((a) => a.body.error === "insufficient_balance")).toBe(true);
    expect(await balanceOf(user.id)).toBe(0);
    expect(await simulatorRequestCount()).toBe(before + 5);
    const ledger = await ledgerOf(user.id);
    expect(ledger.filter((t) => t.type === "generation_reserve")).toHaveLength(5);
    // Only the five charged jobs exist: a refused reserve leaves no row behind.
    expect(await jobsOf(user.id)).toHaveLength(5);
  });

  test("a model failure is 500 generation_failed with the request id, refunded exactly once", async () => {
    const { user, key } = await fundedActor(100);
    const res = await run(FLUX, { prompt: "break it [fail:generation]" }, key);
    expect(res.status).toBe(500);
    const id = res.body.requestId;
    expect(res.body).toEqual({
      success: false,
      error: "generation_failed",
      message: expect.stringMatching(/^Generation failed: .*refunded$/),
      requestId: id,
      request_id: id,
      served_by: { provider: "local", attempts: [{ provider: "local", outcome: "failed" }] },
      status: "failed",
    });
    expect(await balanceOf(user.id)).toBe(1_000_000);
    expect(await ledgerOf(user.id)).toEqual([
      { type: "generation_reserve", amount: -FLUX_SQUARE_HD, generationId: id },
      { type: "generation_refund", amount: FLUX_SQUARE_HD, generationId: id },
    ]);
    expect(await jobRow(id)).toMatchObject({ status: "failed", errorCode: "generation_failed", costSettledCredits: 0 });
    expect((await activityOf(id))[0]).toMatchObject({ status: "failed", errorCode: "generation_failed", credits: 0 });
  });

  test("a provider that keeps failing on submit is 502 provider_error, refunded", async () => {
    const { user, key } = await fundedActor(100);
    const res = await run(FLUX, { prompt: "down [fail:provider]" }, key);
    expect(res.status).toBe(502);
    expect(res.body).toMatchObject({ error: "provider_error", status: "failed" });
    expect(await balanceOf(user.id)).toBe(1_000_000);
    expect((await ledgerOf(user.id)).map((t) => t.type)).toEqual(["generation_reserve", "generation_refund"]);
  });

  test("a provider 503 on the first submit is retried and the run succeeds", async () => {
    const { key } = await fundedActor(100);
    const res = await run(FLUX, { prompt: "flaky [fail:provider:1]" }, key);
    expect(res.status).toBe(200);
    expect(await simulatorRequestsFor(res.body.request_id)).toHaveLength(1);
  });
});

describe("validation", () => {
  test("input failing the model's schema is 400 invalid_body with issues, before any charge", async () => {
    const { user, key } = await fundedActor(100);
    const res = await run(FLUX, { prompt: "ok", num_images: 9 }, key);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: "invalid_body", issues: [{ path: ["num_images"], message: expect.any(String) }] });
    expect(await jobsOf(user.id)).toEqual([]);
    expect(await balanceOf(user.id)).toBe(1_000_000);
  });

  test("text PostgreSQL cannot store (a NUL, a lone surrogate) or input nested 100 000 deep is 400 invalid_body, before any charge", async () => {
    const { user, key } = await fundedActor(100);
    const nul = await run(FLUX, { prompt: "a\u0000b" }, key);
    expect(nul.status).toBe(400);
    expect(nul.body).toMatchObject({ error: "invalid_body", issues: [{ path: ["prompt"], message: expect.stringContaining("NUL") }] });
    for (const raw of ['{"prompt":"a\\ud800b"}', `{"prompt":"x","extra":${"[".repeat(100_000)}${"]".repeat(100_000)}}`]) {
      const res = await call(POST, `/run/${FLUX}`, {
        params: pathOf(FLUX),
        key,
        body: raw,
        headers: { "content-type": "application/json" },
      });
      expect(res.status).toBe(400);
      expect(res.body.error).toBe("invalid_body");
    }
    expect(await jobsOf(user.id)).toEqual([]);
    expect(await balanceOf(user.id)).toBe(1_000_000);
  });

  test("402 insufficient_balance before anything runs: no job, no ledger row, the simulator saw nothing", async () => {
    const before = await simulatorRequestCount();
    const { user, key } = await fundedActor(1);
    const res = await run(FLUX, { prompt: "too expensive" }, key);
    expect(res.status).toBe(402);
    expect(res.body).toEqual({
      success: false,
      error: "insufficient_balance",
      message: expect.any(String),
      required: 2.3593,
      available: 1,
      recovery: { action: "topup", url: "/billing/topup", minAmountRub: 100 },
    });
    expect(await jobsOf(user.id)).toEqual([]);
    expect(await ledgerOf(user.id)).toEqual([]);
    expect(await simulatorRequestCount()).toBe(before);
  });

  test("an unknown model is 404 unknown_model", async () => {
    const { key } = await fundedActor(100);
    const res = await run("fal-ai/nope", { prompt: "x" }, key);
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ error: "unknown_model" });
  });
});

describe("auth", () => {
  test("no key is 401", async () => {
    const res = await call(POST, `/run/${FLUX}`, { params: pathOf(FLUX), body: { prompt: "x" } });
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ error: "unauthorized" });
  });

  test("a user without credits gets 402, never a free run", async () => {
    const { key } = await createActor();
    expect((await run(FLUX, { prompt: "free?" }, key)).status).toBe(402);
  });
});
