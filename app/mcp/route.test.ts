import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { getDb } from "@/db/client";
import { apiKeys, assets, models, uploads } from "@/db/schema";
import { GET as SKILL_BALANCE } from "@/app/api/v1/balance/route";
import { POST as SKILL_GENERATE } from "@/app/api/v1/generate/route";
import { GET as SKILL_SCHEMA } from "@/app/api/v1/models/[...path]/route";
import { forgetCachedModels } from "@/lib/catalog/get";
import { systemClock } from "@/lib/jobs/clock";
import { startTestExecutor } from "@/lib/jobs/testing";
import { createApiKey, createUser } from "@/test/factories";
import { balanceOf, fundedActor, jobRow, ledgerOf, pathOf } from "@/test/generation";
import { call } from "@/test/http";
import { mcpClient, textOf, type Era } from "@/test/mcp";
import * as media from "@/test/media";
import { withEnv } from "@/test/env";
import * as route from "./route";

const MODEL = "fal-ai/flux/schnell";
const SMALL = { image_size: { width: 256, height: 256 } };
const FUNDS = 1_000_000;
const TOOLS = [
  "list_models",
  "get_model_schema",
  "estimate_cost",
  "generate",
  "get_request",
  "cancel_request",
  "upload_file",
  "get_balance",
];

// Auto mode on the real clock, as in production: a queued job runs while the tool waits for it.
let jobs: Awaited<ReturnType<typeof startTestExecutor>>;
beforeAll(async () => {
  jobs = await startTestExecutor({ manual: false, clock: systemClock });
  jobs.start();
});
afterAll(async () => {
  await jobs.stop();
  jobs.uninstall();
});

const connect = (key: string | null, era: Era = "legacy") => mcpClient(route, key, era);
const initialize = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } },
};
const mcpHeaders = { accept: "application/json, text/event-stream" };

describe("success", () => {
  test.each(["legacy", "auto"] as const)(
    "tools/list (%s era): the eight tools, each with a JSON Schema input and a description",
    async (era) => {
      const client = await connect((await fundedActor(0)).key, era);
      expect(client.getProtocolEra()).toBe(era === "auto" ? "modern" : "legacy");
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toEqual(TOOLS);
      for (const tool of tools) {
        expect(tool.inputSchema.type).toBe("object");
        expect(tool.description!.length).toBeGreaterThan(150);
      }
      expect(tools.find((t) => t.name === "generate")!.inputSchema).toMatchObject({
        required: ["model", "input"],
        properties: { wait_seconds: { maximum: 55 } },
      });
      expect(client.getInstructions()).toContain("list_models");
    },
  );

  test("list_models: compact by default, narrowed by category and search, full on request; a hidden model never appears", async () => {
    const client = await connect((await fundedActor(0)).key);
    const compact = (await client.callTool({ name: "list_models", arguments: { limit: 200 } })).structuredContent as any;
    expect(compact.models.length).toBe(compact.total);
    expect(compact.models[0]).toEqual({
      id: expect.any(String),
      name: expect.any(String),
      category: expect.any(String),
      priceRub: expect.any(Number),
      priceUnit: expect.any(String),
    });
    const video = (await client.callTool({ name: "list_models", arguments: { category: "text-to-video" } })).structuredContent as any;
    expect(video.models.length).toBeGreaterThan(0);
    expect(video.models.every((m: any) => m.category === "text-to-video")).toBe(true);
    const found = (await client.callTool({ name: "list_models", arguments: { search: "SCHNELL", format: "full" } }))
      .structuredContent as any;
    expect(found.models).toEqual([expect.objectContaining({ id: MODEL, description: expect.any(String), billingUnit: "megapixel" })]);
    const limited = await client.callTool({ name: "list_models", arguments: { limit: 2 } });
    expect((limited.structuredContent as any).models).toHaveLength(2);
    expect(textOf(limited)).toContain("the first 2 are listed");

    const db = await getDb();
    await db.update(models).set({ visible: false }).where(eq(models.modelId, MODEL));
    try {
      const all = (await client.callTool({ name: "list_models", arguments: { limit: 200 } })).structuredContent as any;
      expect(all.models.map((m: any) => m.id)).not.toContain(MODEL);
    } finally {
      await db.update(models).set({ visible: true }).where(eq(models.modelId, MODEL));
      forgetCachedModels();
    }
  });

  test("get_model_schema answers what GET /api/v1/models/{id}/schema answers, compact by default", async () => {
    const { key } = await fundedActor(0);
    const client = await connect(key);
    for (const format of ["compact", "full"] as const) {
      const viaMcp = (
        await client.callTool({ name: "get_model_schema", arguments: { model: MODEL, ...(format === "full" ? { format } : {}) } })
      ).structuredContent as any;
      const viaHttp = await call(SKILL_SCHEMA, `/api/v1/models/${MODEL}/schema?format=${format}`, { key, params: pathOf(MODEL, "schema") });
      expect(viaMcp).toEqual({ model: MODEL, ...viaHttp.body });
    }
  });

  test("estimate_cost validates and prices an input, charging nothing", async () => {
    const { user, key } = await fundedActor(100);
    const client = await connect(key);
    const res = await client.callTool({
      name: "estimate_cost",
      arguments: { model: MODEL, input: { prompt: "x", ...SMALL, num_images: 2 } },
    });
    expect(res.isError).toBeFalsy();
    expect(res.structuredContent).toMatchObject({
      modelId: MODEL,
      priceUnit: "megapixel",
      currency: "RUB",
      estimatedCostRub: expect.any(Number),
    });
    expect(await balanceOf(user.id)).toBe(FUNDS);
  });

  test("generate waits for the job, reports its events as progress, and returns the result with the image inline; charged once like /api/v1", async () => {
    const { user, key } = await fundedActor(100);
    const client = await connect(key, "auto");
    const progress: { progress: number; message?: string }[] = [];
    const res = await client.callTool(
      { name: "generate", arguments: { model: MODEL, input: { prompt: "a lighthouse [latency:1500]", ...SMALL } } },
      { onprogress: (p) => progress.push(p) },
    );
    expect(res.isError).toBeFalsy();
    const result = res.structuredContent as any;
    expect(result).toMatchObject({
      id: expect.any(String),
      status: "completed",
      model: MODEL,
      output: { images: [{ url: expect.stringContaining("/files/r/") }] },
    });
    expect(textOf(res)).toContain(result.output.images[0].url);
    const [, image] = res.content as { type: string; mimeType: string; data: string }[];
    expect(image).toMatchObject({ type: "image", mimeType: "image/jpeg" });
    expect(Buffer.from(image!.data, "base64").subarray(0, 2)).toEqual(Buffer.from([0xff, 0xd8]));
    // The job's log as it happened: queued → submitted → running, the provider's lines, storing.
    expect(progress.map((p) => p.message)).toEqual(
      expect.arrayContaining(["Queued", "Running", "Storing the result", expect.stringMatching(/^Runner acquired/)]),
    );
    expect(progress.map((p) => p.progress)).toEqual(progress.map((_, i) => i + 1));

    expect(await jobRow(result.id)).toMatchObject({ surface: "skill", mode: "queue", operation: "generate", status: "completed" });
    const ledger = await ledgerOf(user.id);
    expect(ledger.map((t) => t.type)).toEqual(["generation_reserve"]);
    expect(await balanceOf(user.id)).toBe(FUNDS - Math.round(result.cost_rub * 10_000));
  });

  test("media inline only where MCP has a block and the file is small: sound as audio, video and big images as links only", async () => {
    const client = await connect((await fundedActor(100)).key);
    const run = async (model: string, input: Record<string, unknown>) => {
      const res = await client.callTool({ name: "generate", arguments: { model, input } });
      expect(res.isError).toBeFalsy();
      expect(res.structuredContent).toMatchObject({ status: "completed" });
      return { res, blocks: (res.content as { type: string; mimeType?: string }[]).filter((b) => b.type !== "text") };
    };
    const speech = await run("fal-ai/kokoro/american-english", { text: "hello there" });
    expect(speech.blocks).toEqual([expect.objectContaining({ type: "audio", mimeType: expect.stringMatching(/^audio\//) })]);
    const video = await run("fal-ai/ltx-video", { prompt: "waves" });
    expect(video.blocks).toEqual([]);
    expect(textOf(video.res)).toContain((video.res.structuredContent as any).output.video.url);

    // The same image once its stored file is over 1 MiB: linked, no longer inline.
    const image = await run(MODEL, { prompt: "a field", ...SMALL });
    expect(image.blocks).toEqual([expect.objectContaining({ type: "image" })]);
    const id = (image.res.structuredContent as any).id;
    await (
      await getDb()
    )
      .update(assets)
      .set({ sizeBytes: 1024 * 1024 + 1 })
      .where(eq(assets.generationId, id));
    const big = await client.callTool({ name: "get_request", arguments: { request_id: id } });
    expect((big.content as { type: string }[]).map((b) => b.type)).toEqual(["text"]);
    expect(textOf(big)).toContain(`${(image.res.structuredContent as any).output.images[0].url} (image/jpeg, 1048577 bytes)`);
  });

  test("generate with wait_seconds 0 answers the request id at once, past wait_seconds too; get_request waits for the result", async () => {
    const { key } = await fundedActor(100);
    const client = await connect(key);
    const started = await client.callTool({
      name: "generate",
      arguments: { model: MODEL, input: { prompt: "later [latency:1000]", ...SMALL }, wait_seconds: 0 },
    });
    const id = (started.structuredContent as any).id;
    expect(started.structuredContent).toMatchObject({ id, status: "queued", model: MODEL });
    expect(textOf(started)).toContain(`request_id ${id}`);
    expect(textOf(started)).toContain("get_request");
    const done = await client.callTool({ name: "get_request", arguments: { request_id: id, wait_seconds: 20 } });
    expect(done.structuredContent).toMatchObject({ id, status: "completed", output: { images: [expect.any(Object)] } });
    const again = await client.callTool({ name: "get_request", arguments: { request_id: id } });
    expect(again.structuredContent).toEqual(done.structuredContent);

    // A wait is bounded: past wait_seconds the job goes on and the answer is its request id.
    const bounded = await client.callTool({
      name: "generate",
      arguments: { model: MODEL, input: { prompt: "longer [latency:4000]", ...SMALL }, wait_seconds: 1 },
    });
    const boundedId = (bounded.structuredContent as any).id;
    expect(bounded.isError).toBeFalsy();
    expect((bounded.structuredContent as any).status).toMatch(/^(queued|in_progress)$/);
    expect(textOf(bounded)).toMatch(new RegExp(`^Still (queued|running) \\(request_id ${boundedId};`));
    expect(
      (await client.callTool({ name: "get_request", arguments: { request_id: boundedId, wait_seconds: 20 } })).structuredContent,
    ).toMatchObject({ status: "completed" });
  });

  test("cancel_request cancels a job still queued and refunds it in full; a finished one is left alone", async () => {
    const { user, key } = await fundedActor(100);
    const client = await connect(key);
    const started = await client.callTool({
      name: "generate",
      arguments: { model: MODEL, input: { prompt: "slow [latency:60000]", ...SMALL }, wait_seconds: 0 },
    });
    const id = (started.structuredContent as any).id;
    const res = await client.callTool({ name: "cancel_request", arguments: { request_id: id } });
    expect(res.structuredContent).toEqual({ request_id: id, ok: true, status: "cancelled" });
    expect((await ledgerOf(user.id)).map((t) => t.type)).toEqual(["generation_reserve", "generation_refund"]);
    expect(await balanceOf(user.id)).toBe(FUNDS);
    expect((await client.callTool({ name: "get_request", arguments: { request_id: id } })).structuredContent).toMatchObject({
      id,
      status: "failed",
    });
    expect((await client.callTool({ name: "cancel_request", arguments: { request_id: id } })).structuredContent).toEqual({
      request_id: id,
      ok: false,
      status: "cancelled",
    });
  });

  test("upload_file stores base64 and data URLs as POST /api/v1/upload does", async () => {
    const { user, key } = await fundedActor(0);
    const client = await connect(key);
    const png = await media.image("png");
    for (const args of [
      { data: png.toString("base64"), mime_type: "image/png", filename: "a.png" },
      { data: `data:image/png;base64,${png.toString("base64")}` },
    ]) {
      const res = await client.callTool({ name: "upload_file", arguments: args });
      expect(res.isError).toBeFalsy();
      const file = res.structuredContent as any;
      expect(file).toEqual({
        file_id: expect.any(String),
        url: expect.stringContaining("/files/u/"),
        provider_url: file.url,
        mime_type: "image/png",
        size_bytes: png.length,
        expires_at: null,
      });
      const [row] = await (await getDb()).select().from(uploads).where(eq(uploads.id, file.file_id));
      expect(row).toMatchObject({ userId: user.id, mimeType: "image/png", sizeBytes: png.length });
    }
  });

  test("get_balance answers what GET /api/v1/balance answers, with where to top up", async () => {
    const { key } = await fundedActor(100);
    const client = await connect(key);
    const viaHttp = await call(SKILL_BALANCE, "/api/v1/balance", { key });
    expect((await client.callTool({ name: "get_balance", arguments: {} })).structuredContent).toEqual({
      ...viaHttp.body,
      topup_url: "http://localhost:3000/dashboard/billing",
    });
  });

  test("a sandbox (_test_) key generates on the simulator and is charged nothing", async () => {
    const { user, key } = await fundedActor(0, { sandbox: true });
    const client = await connect(key);
    const res = await client.callTool({ name: "generate", arguments: { model: MODEL, input: { prompt: "free", ...SMALL } } });
    expect(res.structuredContent).toMatchObject({ status: "completed", cost_rub: 0 });
    expect(await jobRow((res.structuredContent as any).id)).toMatchObject({ sandbox: true });
    expect(await ledgerOf(user.id)).toEqual([]);
  });
});

describe("tool errors", () => {
  test("a failing generation is a PROVIDER_ERROR tool error with the request id, refunded", async () => {
    const { user, key } = await fundedActor(100);
    const client = await connect(key);
    const res = await client.callTool({
      name: "generate",
      arguments: { model: MODEL, input: { prompt: "no [fail:generation]", ...SMALL } },
    });
    expect(res.isError).toBe(true);
    expect(textOf(res)).toMatch(/^PROVIDER_ERROR: Generation failed: .*the charge was refunded/);
    expect(res.structuredContent).toMatchObject({
      code: "PROVIDER_ERROR",
      details: { reason: "generation_failed", request_id: expect.any(String) },
    });
    expect((await ledgerOf(user.id)).map((t) => t.type)).toEqual(["generation_reserve", "generation_refund"]);
    expect(await balanceOf(user.id)).toBe(FUNDS);
  });

  test("402: INSUFFICIENT_BALANCE names the shortfall and how much to top up, and nothing runs", async () => {
    const { user, key } = await fundedActor(0);
    const client = await connect(key);
    const res = await client.callTool({ name: "generate", arguments: { model: MODEL, input: { prompt: "x", ...SMALL } } });
    expect(res.isError).toBe(true);
    expect(res.structuredContent).toEqual({
      error: "Balance too low for this generation; top up to continue",
      code: "INSUFFICIENT_BALANCE",
      details: {
        reason: "insufficient_balance",
        required: 0.0177,
        available: 0,
        recovery: { action: "topup", url: "/billing/topup", minAmountRub: 100 },
        http_request_id: expect.any(String),
      },
    });
    expect(textOf(res)).toBe(
      "INSUFFICIENT_BALANCE: Balance too low for this generation; top up to continue. The call needs 0.0177 ₽ and the balance is 0 ₽. " +
        "Ask the user to top up at least 100 ₽ at http://localhost:3000/dashboard/billing, then call again; get_balance shows the balance.",
    );
    expect(await ledgerOf(user.id)).toEqual([]);
  });

  test("429: the tier limit is the one /api/v1/generate counts against; RATE_LIMITED says how long to wait", async () => {
    await withEnv({ TIER_RPM: "2,2,2,2" }, async () => {
      const { key } = await fundedActor(0);
      const client = await connect(key);
      const generate = () => client.callTool({ name: "generate", arguments: { model: MODEL, input: { prompt: "x", ...SMALL } } });
      expect(
        (await call(SKILL_GENERATE, "/api/v1/generate", { key, body: { model: MODEL, input: { prompt: "x", ...SMALL } } })).status,
      ).toBe(402);
      expect((await generate()).structuredContent).toMatchObject({ code: "INSUFFICIENT_BALANCE" });
      const limited = await generate();
      expect(limited.isError).toBe(true);
      expect(limited.structuredContent).toMatchObject({ code: "RATE_LIMITED", details: { reason: "rate_limited" } });
      expect(textOf(limited)).toMatch(/^RATE_LIMITED: Tier limit reached: 2 requests per minute.* Wait \d+ seconds before calling again/);
      expect((await call(SKILL_GENERATE, "/api/v1/generate", { key, body: { model: MODEL, input: { prompt: "x" } } })).status).toBe(429);
    });
  });

  test("another user's request id is NOT_FOUND, exactly like a missing one", async () => {
    const owner = await fundedActor(100);
    const id = (
      (
        await (
          await connect(owner.key)
        ).callTool({ name: "generate", arguments: { model: MODEL, input: { prompt: "mine", ...SMALL }, wait_seconds: 0 } })
      ).structuredContent as any
    ).id;
    const other = await connect((await fundedActor(100)).key);
    for (const requestId of [id, crypto.randomUUID(), "not-a-uuid"]) {
      for (const name of ["get_request", "cancel_request"]) {
        const res = await other.callTool({ name, arguments: { request_id: requestId } });
        expect(res.isError).toBe(true);
        expect(res.structuredContent).toMatchObject({ error: "Request not found", code: "NOT_FOUND", details: { reason: "not_found" } });
      }
    }
    expect((await jobRow(id)).status).not.toBe("cancelled");
  });

  test("an unknown model: generate says INVALID_PARAMS naming model (as /api/v1 does); the schema and estimate say NOT_FOUND", async () => {
    const client = await connect((await fundedActor(100)).key);
    const generated = await client.callTool({ name: "generate", arguments: { model: "no/such-model", input: { prompt: "x" } } });
    expect(generated.structuredContent).toMatchObject({
      code: "INVALID_PARAMS",
      details: { issues: [{ path: ["model"], message: "Unknown model: no/such-model" }] },
    });
    expect(textOf(generated)).toContain("Call list_models");
    for (const name of ["get_model_schema", "estimate_cost"]) {
      const res = await client.callTool({ name, arguments: { model: "no/such-model" } });
      expect(res.structuredContent).toMatchObject({ code: "NOT_FOUND", details: { reason: "unknown_model" } });
    }
  });

  test("bad arguments are INVALID_PARAMS tool errors naming the fields, before anything is charged", async () => {
    const { user, key } = await fundedActor(100);
    const client = await connect(key);
    const res = await client.callTool({ name: "generate", arguments: { model: MODEL, input: { prompt: "x", num_images: 99 } } });
    expect(res.isError).toBe(true);
    expect(res.structuredContent).toMatchObject({ code: "INVALID_PARAMS", details: { issues: [{ path: ["num_images"] }] } });
    const schemaless = await client.callTool({ name: "generate", arguments: { model: MODEL } });
    expect(schemaless.isError).toBe(true);
    expect(textOf(schemaless)).toContain("input");
    expect(await ledgerOf(user.id)).toEqual([]);
  });

  test("upload_file applies /api/v1/upload's checks: a type outside the list and a file over MAX_UPLOAD_BYTES are INVALID_PARAMS", async () => {
    const client = await connect((await fundedActor(0)).key);
    const text = await client.callTool({
      name: "upload_file",
      arguments: { data: Buffer.from("<html></html>").toString("base64"), mime_type: "text/html" },
    });
    expect(text.structuredContent).toMatchObject({ code: "INVALID_PARAMS", details: { reason: "unsupported_media_type" } });
    await withEnv({ MAX_UPLOAD_BYTES: "100" }, async () => {
      const big = await client.callTool({
        name: "upload_file",
        arguments: { data: (await media.image("png", 64)).toString("base64"), mime_type: "image/png" },
      });
      expect(big.structuredContent).toMatchObject({ code: "INVALID_PARAMS", details: { reason: "asset_too_large" } });
    });
    const plain = await client.callTool({ name: "upload_file", arguments: { data: "AAAA" } });
    expect(textOf(plain)).toContain("mime_type");
  });
});

describe("auth", () => {
  test("no key → 401 with a bare WWW-Authenticate challenge; the SDK client cannot connect", async () => {
    const res = await call(route.POST, "/mcp", { body: initialize, headers: mcpHeaders });
    expect(res.status).toBe(401);
    expect(res.headers.get("www-authenticate")).toBe('Bearer realm="mcp"');
    expect(res.body).toEqual({ error: expect.any(String), code: "UNAUTHORIZED", details: { reason: "unauthorized" } });
    await expect(connect(null)).rejects.toMatchObject({ name: "SdkHttpError", status: 401 });
  });

  test("a malformed, unknown, disabled or expired key → 401 invalid_token", async () => {
    const user = await createUser();
    const keys = [
      "nope",
      `gw_live_${"x".repeat(40)}`,
      (await createApiKey(user, { enabled: false })).key,
      (await createApiKey(user, { expiresAt: new Date(Date.now() - 1000) })).key,
    ];
    for (const key of keys) {
      const res = await call(route.POST, "/mcp", { body: initialize, headers: { ...mcpHeaders, authorization: `Bearer ${key}` } });
      expect(res.status).toBe(401);
      expect(res.headers.get("www-authenticate")).toMatch(/^Bearer realm="mcp", error="invalid_token"/);
    }
  });

  test("a generate or get_request waiting on a job ends with UNAUTHORIZED as soon as its key is deleted; the job goes on", async () => {
    const { key, apiKey } = await fundedActor(100);
    const client = await connect(key);
    const started = await client.callTool({
      name: "generate",
      arguments: { model: MODEL, input: { prompt: "orphaned [latency:60000]", ...SMALL }, wait_seconds: 0 },
    });
    const id = (started.structuredContent as any).id;
    // Each call is following its job once its own first progress notice ("Queued") arrives; one
    // call's second notice must not stand for the other's first (that one may not be in yet).
    const following = [false, false];
    const onprogressOf = (i: number) => () => void (following[i] = true);
    const waits = [
      client.callTool(
        { name: "generate", arguments: { model: MODEL, input: { prompt: "orphaned too [latency:60000]", ...SMALL } } },
        { onprogress: onprogressOf(0), timeout: 120_000 },
      ),
      client.callTool(
        { name: "get_request", arguments: { request_id: id, wait_seconds: 55 } },
        { onprogress: onprogressOf(1), timeout: 120_000 },
      ),
    ];
    while (!following.every(Boolean)) await new Promise((r) => setTimeout(r, 10));
    const deletedAt = Date.now();
    await (await getDb()).delete(apiKeys).where(eq(apiKeys.id, apiKey.id));
    const answers = await Promise.all(waits);
    // Ended by the deletion's notice, not by their 55 s waits (a generous bound: a busy machine is slow, never 55 s slow).
    expect(Date.now() - deletedAt).toBeLessThan(30_000);
    for (const answer of answers) {
      expect(answer.isError).toBe(true);
      expect(textOf(answer)).toMatch(/^UNAUTHORIZED: The API key was deleted/);
    }
    expect(["queued", "in_progress"]).toContain((await jobRow(id)).status);
  });

  test("a banned user's key → 403; the SDK client is refused", async () => {
    const user = await createUser({ banned: true, banReason: "test" });
    const { key } = await createApiKey(user);
    const res = await call(route.POST, "/mcp", { key, body: initialize, headers: mcpHeaders });
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ code: "UNAUTHORIZED", details: { reason: "forbidden" } });
    await expect(connect(key)).rejects.toMatchObject({ name: "SdkHttpError", status: 403 });
  });

  test("every HTTP request counts against the key's own limit, as on /api/v1: past it, 429 with Retry-After", async () => {
    const { key, apiKey } = await fundedActor(0);
    await (await getDb()).update(apiKeys).set({ rateLimitMax: 3 }).where(eq(apiKeys.id, apiKey.id));
    const client = await connect(key); // initialize + notifications/initialized: two requests
    await client.callTool({ name: "get_balance", arguments: {} });
    await expect(client.callTool({ name: "get_balance", arguments: {} })).rejects.toMatchObject({ name: "SdkHttpError", status: 429 });
    const res = await call(SKILL_BALANCE, "/api/v1/balance", { key });
    expect(res.status).toBe(429);
    expect(res.headers.get("retry-after")).toBeTruthy();
  });

  test("GET and DELETE /mcp → 405 with Allow: a stateless server has no stream or session", async () => {
    const { key } = await fundedActor(0);
    for (const handler of [route.GET, route.DELETE]) {
      const res = await call(handler, "/mcp", { key, method: handler === route.GET ? "GET" : "DELETE" });
      expect(res.status).toBe(405);
      expect(res.headers.get("allow")).toBe("OPTIONS, POST");
    }
  });
});
