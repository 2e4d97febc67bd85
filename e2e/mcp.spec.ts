import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { expect, test } from "@playwright/test";
import sharp from "sharp";
import { withAppDb } from "./catalog-db";
import { apiUser, expectLedgerConsistent, type ApiUser } from "./field-helpers";
import { baseURL } from "../playwright.config";

/**
 * The MCP server as an agent's host meets it: the SDK's own Client over Streamable HTTP against
 * the production build, on the local simulator (whose `[latency:N]` and `[fail:…]` prompt markers
 * make the provider slow or fail). After every test each user's ledger is checked: every job
 * charged or refunded exactly once, balance = sum of rows.
 */
const MODEL = "fal-ai/flux/schnell";
const SMALL = { image_size: { width: 256, height: 256 } };
const FUNDS = 1_000_000;

const users: ApiUser[] = [];
/**
 * apiUser runs the CLI synchronously, blocking this worker's event loop for seconds; the server
 * meanwhile closes the idle keep-alive socket of the previous calls. A short pause lets fetch see
 * that close before it picks a socket, instead of writing to a closed one ("other side closed").
 */
async function newUser(rub = 100): Promise<ApiUser> {
  const user = apiUser(rub);
  users.push(user);
  await new Promise((resolve) => setTimeout(resolve, 100));
  return user;
}
test.afterEach(async () => {
  for (const user of users.splice(0)) await expectLedgerConsistent(user.userId);
});

type Era = "legacy" | "auto";
async function connect(key: string | null, era: Era = "auto"): Promise<Client> {
  const client = new Client({ name: "e2e-agent", version: "1.0.0" }, { versionNegotiation: { mode: era } });
  const headers: Record<string, string> = key ? { Authorization: `Bearer ${key}` } : {};
  await client.connect(new StreamableHTTPClientTransport(new URL("/mcp", baseURL), { requestInit: { headers } }));
  return client;
}

type Block = { type: string; text?: string; data?: string; mimeType?: string };
const blocks = (result: { content?: unknown }) => (result.content ?? []) as Block[];
const textOf = (result: { content?: unknown }) => blocks(result).find((b) => b.type === "text")?.text ?? "";
const data = (result: { structuredContent?: unknown }) => result.structuredContent as Record<string, any>;
const balanceOf = async (client: Client) => data(await client.callTool({ name: "get_balance", arguments: {} })).balance_rub as number;

test.describe("tools", () => {
  for (const era of ["auto", "legacy"] as const) {
    test(`an MCP client (${era} era) lists the eight tools and calls each one`, async () => {
      const user = await newUser();
      const client = await connect(user.apiKey, era);
      expect(client.getProtocolEra()).toBe(era === "auto" ? "modern" : "legacy");
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name).sort()).toEqual([
        "cancel_request",
        "estimate_cost",
        "generate",
        "get_balance",
        "get_model_schema",
        "get_request",
        "list_models",
        "upload_file",
      ]);

      const listed = data(await client.callTool({ name: "list_models", arguments: { search: "schnell" } }));
      expect(listed.models).toEqual([
        { id: MODEL, name: expect.any(String), category: "text-to-image", priceRub: expect.any(Number), priceUnit: "megapixels" },
      ]);
      const schema = data(await client.callTool({ name: "get_model_schema", arguments: { model: MODEL } }));
      expect(schema).toMatchObject({ model: MODEL, required: ["prompt"], properties: { prompt: { type: "string" } } });
      const estimate = data(
        await client.callTool({ name: "estimate_cost", arguments: { model: MODEL, input: { prompt: "x", ...SMALL } } }),
      );
      expect(estimate).toMatchObject({ modelId: MODEL, estimatedCostRub: expect.any(Number), priceUnit: "megapixel" });

      const png = await sharp({ create: { width: 16, height: 16, channels: 3, background: { r: 10, g: 120, b: 200 } } })
        .png()
        .toBuffer();
      const upload = data(
        await client.callTool({ name: "upload_file", arguments: { data: `data:image/png;base64,${png.toString("base64")}` } }),
      );
      expect(upload).toMatchObject({ mime_type: "image/png", size_bytes: png.length, url: expect.stringContaining("/files/u/") });
      expect((await fetch(upload.url)).status).toBe(200);

      const generated = await client.callTool({
        name: "generate",
        arguments: { model: MODEL, input: { prompt: `an orchard (${era})`, ...SMALL } },
      });
      expect(data(generated)).toMatchObject({ status: "completed", model: MODEL, cost_rub: estimate.estimatedCostRub });
      const id = data(generated).id as string;
      expect(data(await client.callTool({ name: "get_request", arguments: { request_id: id } }))).toEqual(data(generated));

      const slow = data(
        await client.callTool({
          name: "generate",
          arguments: { model: MODEL, input: { prompt: "slow [latency:60000]", ...SMALL }, wait_seconds: 0 },
        }),
      );
      expect(slow.status).toBe("queued");
      expect(data(await client.callTool({ name: "cancel_request", arguments: { request_id: slow.id } }))).toEqual({
        request_id: slow.id,
        ok: true,
        status: "cancelled",
      });

      expect(await balanceOf(client)).toBe((FUNDS - Math.round(estimate.estimatedCostRub * 10_000)) / 10_000);
      await client.close();
    });
  }

  test("a generate on a provider that takes 3 s reports progress from the job's events and answers the re-hosted image, inline too", async () => {
    const user = await newUser();
    const client = await connect(user.apiKey);
    const progress: { progress: number; message?: string }[] = [];
    const res = await client.callTool(
      { name: "generate", arguments: { model: MODEL, input: { prompt: "a lighthouse [latency:3000]", ...SMALL } } },
      { onprogress: (p) => progress.push(p), timeout: 55_000 },
    );
    expect(res.isError).toBeFalsy();
    const result = data(res);
    expect(result).toMatchObject({
      status: "completed",
      output: { images: [{ url: expect.stringContaining("/files/r/"), width: 256, height: 256 }] },
    });
    expect(result.processing_time_ms).toBeGreaterThanOrEqual(3000);
    // Several notifications while it ran, each a step further: the stages and the provider's lines.
    expect(progress.length).toBeGreaterThanOrEqual(4);
    expect(progress.map((p) => p.progress)).toEqual(progress.map((_, i) => i + 1));
    expect(progress.map((p) => p.message)).toEqual(
      expect.arrayContaining(["Queued", "Running", "Storing the result", expect.stringMatching(/^(Runner acquired|Step \d+\/\d+)/)]),
    );
    const image = blocks(res).find((b) => b.type === "image");
    expect(image?.mimeType).toMatch(/^image\//);
    const file = await fetch(result.output.images[0].url);
    expect(Buffer.from(await file.arrayBuffer()).equals(Buffer.from(image!.data!, "base64"))).toBe(true);
    expect(textOf(res)).toContain(result.output.images[0].url);
  });

  test("a provider that fails is a PROVIDER_ERROR tool error with the request id, already refunded", async () => {
    const user = await newUser();
    const client = await connect(user.apiKey);
    const res = await client.callTool({
      name: "generate",
      arguments: { model: MODEL, input: { prompt: "down [latency:1000] [fail:generation]", ...SMALL } },
    });
    expect(res.isError).toBe(true);
    expect(data(res)).toMatchObject({ code: "PROVIDER_ERROR", details: { request_id: expect.any(String) } });
    expect(textOf(res)).toMatch(/^PROVIDER_ERROR: .*refunded/);
    expect(await balanceOf(client)).toBe(FUNDS / 10_000);
  });
});

test.describe("refusals", () => {
  test("402 and 429 come back as tool errors: how much to top up, then how long to wait", async () => {
    const user = await newUser(0.0001);
    const client = await connect(user.apiKey);
    const generate = () => client.callTool({ name: "generate", arguments: { model: MODEL, input: { prompt: "x", ...SMALL } } });
    const broke = await generate();
    expect(broke.isError).toBe(true);
    expect(data(broke)).toMatchObject({
      code: "INSUFFICIENT_BALANCE",
      details: { available: 0.0001, recovery: { minAmountRub: expect.any(Number) } },
    });
    expect(textOf(broke)).toContain(`top up at least ${data(broke).details.recovery.minAmountRub} ₽ at ${baseURL}/dashboard/billing`);
    // Tier 1 allows 10 generate calls a minute (refused ones count too, as on /api/v1/generate).
    let limited = broke;
    for (let i = 0; i < 12 && data(limited).code !== "RATE_LIMITED"; i++) limited = await generate();
    expect(limited.isError).toBe(true);
    expect(data(limited)).toMatchObject({ code: "RATE_LIMITED", details: { reason: "rate_limited" } });
    expect(textOf(limited)).toMatch(/Wait \d+ seconds before calling again/);
  });

  test("another user's request id answers NOT_FOUND, exactly like a missing one", async () => {
    const owner = await newUser();
    const mine = data(
      await (
        await connect(owner.apiKey)
      ).callTool({ name: "generate", arguments: { model: MODEL, input: { prompt: "mine", ...SMALL }, wait_seconds: 0 } }),
    ).id as string;
    const other = await connect((await newUser()).apiKey);
    for (const requestId of [mine, crypto.randomUUID()]) {
      for (const name of ["get_request", "cancel_request"]) {
        const res = await other.callTool({ name, arguments: { request_id: requestId } });
        expect(res.isError).toBe(true);
        expect(data(res)).toMatchObject({ error: "Request not found", code: "NOT_FOUND" });
      }
    }
  });

  test("no key or a bad one is 401 with WWW-Authenticate; a banned user is refused with 403", async ({ request }) => {
    const res = await request.post("/mcp", {
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      data: { jsonrpc: "2.0", id: 1, method: "tools/list" },
    });
    expect(res.status()).toBe(401);
    expect(res.headers()["www-authenticate"]).toBe('Bearer realm="mcp"');
    expect(res.headers()["x-request-id"]).toBeTruthy();
    await expect(connect(null)).rejects.toMatchObject({ status: 401 });
    // A key that is not one: the challenge says the token was refused.
    const bad = await request.post("/mcp", {
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        authorization: `Bearer gw_live_${"x".repeat(40)}`,
      },
      data: { jsonrpc: "2.0", id: 1, method: "tools/list" },
    });
    expect(bad.status()).toBe(401);
    expect(bad.headers()["www-authenticate"]).toMatch(/^Bearer realm="mcp", error="invalid_token"/);
    expect(await bad.json()).toMatchObject({ code: "UNAUTHORIZED" });
    await expect(connect(`gw_live_${"y".repeat(40)}`)).rejects.toMatchObject({ status: 401 });

    const user = await newUser();
    const client = await connect(user.apiKey);
    await withAppDb((sql) => sql`update users set banned = true, ban_reason = 'e2e' where id = ${user.userId}`);
    await expect(client.callTool({ name: "get_balance", arguments: {} })).rejects.toMatchObject({ status: 403 });
    await expect(connect(user.apiKey)).rejects.toMatchObject({ status: 403 });
  });
});

test.describe("discovery", () => {
  test("/llms.txt indexes the service; a model's llms.txt (through the catalog path) gives its price, input and calls", async ({
    request,
  }) => {
    const index = await request.get("/llms.txt");
    expect(index.status()).toBe(200);
    expect(index.headers()["content-type"]).toBe("text/plain; charset=utf-8");
    const text = await index.text();
    expect(text).toMatch(/^# Generation Gateway\n\n> /);
    expect(text).toContain(`- [MCP server](${baseURL}/mcp)`);
    expect(text).toContain(`(${baseURL}/catalog/${MODEL}/llms.txt)`);

    const model = await request.get(`/catalog/${MODEL}/llms.txt`);
    expect(model.status()).toBe(200);
    expect(model.headers()["x-request-id"]).toBeTruthy();
    const page = await model.text();
    expect(page).toMatch(/^# FLUX\.1 \[schnell\]/);
    expect(page).toContain("₽ per megapixel of output");
    expect(page).toContain(`curl -X POST "${baseURL}/api/v1/generate"`);
    expect(page).toContain(`curl -X POST "${baseURL}/run/${MODEL}"`);
    expect(page).toContain(`connect a client to ${baseURL}/mcp`);
    expect((await request.get("/catalog/fal-ai/flux-pro/v1/llms.txt")).status()).toBe(404);
    // The catalog page itself is untouched by the rewrite.
    expect((await request.get(`/catalog/${MODEL}`)).headers()["content-type"]).toContain("text/html");
  });

  test("the landing page and /openapi.json show how to connect an MCP client, with this server's URL and the key header", async ({
    page,
    request,
  }) => {
    await page.goto("/");
    await expect(page.getByRole("heading", { name: "Connect an AI agent over MCP" })).toBeVisible();
    const config = JSON.parse((await page.getByTestId("mcp-config").textContent())!);
    expect(config).toEqual({
      mcpServers: { "generation-gateway": { type: "http", url: `${baseURL}/mcp`, headers: { Authorization: "Bearer YOUR_API_KEY" } } },
    });
    const doc = await (await request.get("/openapi.json")).json();
    expect(doc.paths["/mcp"].post.operationId).toBe("mcp");
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(["/llms.txt", "/catalog/{modelId}/llms.txt"]));
    expect(doc.info.description).toContain(`"url": "${baseURL}/mcp"`);
  });
});
