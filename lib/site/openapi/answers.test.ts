import { eq } from "drizzle-orm";
import { afterEach, beforeAll, describe, expect, test } from "vitest";
import { getDb } from "@/db/client";
import { apiKeys } from "@/db/schema";
import { GET as getOpenApi } from "@/app/(gateway)/openapi.json/route";
import { breakerFor } from "@/lib/provider";
import { resetBreakers } from "@/lib/provider/circuit-breaker";
import { STORED_CONTENT_TYPES } from "@/lib/storage/media-types";
import { createActor, createApiKey, createSession, createUser } from "@/test/factories";
import { fundedActor } from "@/test/generation";
import { BASE_URL, call } from "@/test/http";
import * as media from "@/test/media";
import { departures } from "@/test/openapi";
import { appFetch } from "@/test/servers/app";

/**
 * What the routes answer, held to what /openapi.json says they answer: real requests through the
 * route handlers, routed as Next.js routes them (test/servers/app.ts), each answer's status, media
 * type and body checked against the document (test/openapi.ts).
 */
type Json = Record<string, any>;
type Op = { method: string; path: string; op: Json };
const METHODS = ["get", "put", "post", "delete", "patch"];

let doc: Json;
let caller: { key: string; session: string };
let admin: string;
beforeAll(async () => {
  doc = (await call(getOpenApi, "/openapi.json")).body;
  const actor = await createActor();
  caller = { key: actor.key, session: actor.session };
  admin = (await createSession(await createUser({ role: "admin" }))).token;
});
afterEach(() => resetBreakers());

const operations = (): Op[] =>
  Object.entries(doc.paths as Json).flatMap(([path, item]) =>
    Object.entries(item as Json)
      .filter(([method]) => METHODS.includes(method))
      .map(([method, op]) => ({ method: method.toUpperCase(), path, op: op as Json })),
  );

/** The credentials an operation asks for: the key, or a session (an admin's under /admin), or none. */
function credentialsOf({ path, op }: Op): Record<string, string> {
  const security = JSON.stringify(op.security ?? []);
  if (security.includes("bearerAuth")) return { authorization: `Bearer ${caller.key}` };
  if (security.includes("sessionCookie")) return { cookie: `authjs.session-token=${path.startsWith("/admin") ? admin : caller.session}` };
  return {};
}

/** A request to an operation: its path with `params` filled in, a JSON `{}` where it takes JSON. */
function requestTo({ method, path, op }: Op, params: (name: string) => string, headers: Record<string, string>): Request {
  const url = path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(params(name)));
  const json = op.requestBody?.content?.["application/json"] && method !== "GET";
  return new Request(new URL(url, BASE_URL), {
    method,
    headers: { ...headers, ...(json ? { "content-type": "application/json" } : {}) },
    body: json ? "{}" : undefined,
  });
}

async function answersOf(ops: Op[], request: (o: Op) => Request): Promise<string[]> {
  const problems: string[] = [];
  for (const o of ops) problems.push(...(await departures(doc, o.method, o.path, await appFetch(request(o)))));
  return problems;
}

describe("what the wrapper answers before the handler runs", () => {
  test("a path id no resource can have (300 characters) is answered a documented status, in the operation's envelope", async () => {
    const withParams = operations().filter(({ op }) => (op.parameters ?? []).some((p: Json) => p.in === "path"));
    expect(withParams.length).toBeGreaterThan(40);
    const long = "x".repeat(300);
    expect(await answersOf(withParams, (o) => requestTo(o, () => long, credentialsOf(o)))).toEqual([]);
  });

  test("no credentials: a documented 401 in the envelope", async () => {
    const guarded = operations().filter(
      ({ op }) =>
        (op.security ?? []).length > 0 && JSON.stringify(op.security) !== JSON.stringify([{}, { bearerAuth: [] }, { sessionCookie: [] }]),
    );
    expect(guarded.length).toBeGreaterThan(60);
    expect(await answersOf(guarded, (o) => requestTo(o, () => "x", {}))).toEqual([]);
  });

  test("a key over its limit: a documented 429 in the envelope", async () => {
    const user = await createUser();
    const limited = await createApiKey(user);
    const db = await getDb();
    await db
      .update(apiKeys)
      .set({ rateLimitEnabled: true, rateLimitMax: 1, rateLimitTimeWindow: 3_600_000 })
      .where(eq(apiKeys.id, limited.id));
    const byKey = operations().filter(({ op }) => JSON.stringify(op.security ?? []).includes("bearerAuth"));
    const first = await appFetch(new Request(new URL("/me", BASE_URL), { headers: { authorization: `Bearer ${limited.key}` } }));
    expect(first.status).toBe(200);
    const answers = await Promise.all(
      byKey.map(async (o) => {
        const res = await appFetch(requestTo(o, () => "x", { authorization: `Bearer ${limited.key}` }));
        return { status: res.status, tags: o.op.tags as string[], problems: await departures(doc, o.method, o.path, res) };
      }),
    );
    // fal's routes name their operation by the fal URL first: an unknown one is refused before the key is counted.
    expect(answers.filter((a) => a.status !== 429 && !a.tags.includes("fal compatibility"))).toEqual([]);
    expect(answers.flatMap((a) => a.problems)).toEqual([]);
  });
});

describe("answers the handlers give", () => {
  const FLUX = "fal-ai/flux/schnell";
  const send = async (method: string, template: string, url: string, init: RequestInit = {}) => {
    const res = await appFetch(new Request(new URL(url, BASE_URL), { method, ...init }));
    return { res, problems: await departures(doc, method, template, res) };
  };

  test("a sync run while the provider's circuit is open: the documented 503 on /run and /api/v1/generate", async () => {
    const { key } = await fundedActor(100);
    for (let i = 0; i < 10; i++) breakerFor("local").recordFailure();
    const headers = { authorization: `Bearer ${key}`, "content-type": "application/json" };
    const run = await send("POST", "/run/{modelId}", `/run/${FLUX}`, { headers, body: JSON.stringify({ prompt: "circuit" }) });
    const skill = await send("POST", "/api/v1/generate", "/api/v1/generate", {
      headers,
      body: JSON.stringify({ model: FLUX, input: { prompt: "circuit" }, sync: true }),
    });
    expect([run.res.status, skill.res.status]).toEqual([503, 503]);
    expect([...run.problems, ...skill.problems]).toEqual([]);
  });

  test("/mcp: the event-stream answer, a notification's 202 and the SDK's JSON-RPC refusals are documented", async () => {
    const headers = { authorization: `Bearer ${caller.key}`, "content-type": "application/json" };
    const accept = { ...headers, accept: "application/json, text/event-stream" };
    const initialize = {
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } },
    };
    const answers = [
      await send("POST", "/mcp", "/mcp", { headers: accept, body: JSON.stringify(initialize) }),
      await send("POST", "/mcp", "/mcp", {
        headers: accept,
        body: JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }),
      }),
      await send("POST", "/mcp", "/mcp", { headers: accept, body: JSON.stringify({ not: "json-rpc" }) }),
      await send("POST", "/mcp", "/mcp", { headers, body: JSON.stringify(initialize) }),
      await send("POST", "/mcp", "/mcp", { headers: { ...accept, "content-type": "text/plain" }, body: "x" }),
    ];
    expect(answers.map(({ res }) => [res.status, res.headers.get("content-type")?.split(";")[0] ?? null])).toEqual([
      [200, "text/event-stream"],
      [202, null],
      [400, "application/json"],
      [406, "application/json"],
      [415, "application/json"],
    ]);
    expect(answers.flatMap((a) => a.problems)).toEqual([]);
  });

  test("/files/{key}: a stored file is answered in its own type, which the document lists, as it lists every type storage serves", async () => {
    const upload = await send("POST", "/me/uploads", "/me/uploads", {
      headers: { authorization: `Bearer ${caller.key}` },
      body: (() => {
        const form = new FormData();
        form.append("file", new Blob([new Uint8Array(media.mp3())], { type: "audio/mpeg" }), "a.mp3");
        return form;
      })(),
    });
    expect(upload.res.status).toBe(201);
    const file = await send("GET", "/files/{key}", new URL((await upload.res.json()).url).pathname);
    expect([file.res.status, file.res.headers.get("content-type")]).toEqual([200, "audio/mpeg"]);
    expect([...upload.problems, ...file.problems]).toEqual([]);
    expect(STORED_CONTENT_TYPES.filter((type) => !doc.paths["/files/{key}"].get.responses["200"].content[type])).toEqual([]);
  });

  test("a model's skill schema, compact and full, is the documented SkillModelSchema", async () => {
    const headers = { authorization: `Bearer ${caller.key}` };
    const compact = await send("GET", "/api/v1/models/{modelId}/schema", `/api/v1/models/${FLUX}/schema`, { headers });
    const full = await send("GET", "/api/v1/models/{modelId}/schema", `/api/v1/models/${FLUX}/schema?format=full`, { headers });
    expect([compact.res.status, full.res.status]).toEqual([200, 200]);
    expect(await full.res.json()).toMatchObject({ type: "object", required: ["prompt"], properties: { prompt: { type: "string" } } });
    expect([...compact.problems, ...full.problems]).toEqual([]);
  });

  test("a path under /api/fal/proxy or /mcp that no route serves: the JSON 404 envelope with X-Request-ID, not an HTML page", async () => {
    const headers = { authorization: `Bearer ${caller.key}` };
    const answers = await Promise.all(
      ["/api/fal/proxy/fal-ai/flux/dev", "/api/fal/other", "/mcp/sse", "/mcp/messages"].map((path) =>
        appFetch(new Request(new URL(path, BASE_URL), { headers })),
      ),
    );
    expect(answers.map((res) => [res.status, res.headers.get("content-type"), Boolean(res.headers.get("x-request-id"))])).toEqual([
      [404, "application/json", true],
      [404, "application/json", true],
      [404, "application/json", true],
      [404, "application/json", true],
    ]);
    expect(await answers[0]!.json()).toMatchObject({ success: false, error: "not_found" });
    expect(await answers[2]!.json()).toMatchObject({ code: "NOT_FOUND" });
  });
});
