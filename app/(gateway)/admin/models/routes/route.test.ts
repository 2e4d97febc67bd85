import { asc, eq } from "drizzle-orm";
import { describe, expect, test } from "vitest";
import { getDb } from "@/db/client";
import { modelRoutes } from "@/db/schema";
import { adminModelRoutesResponse } from "@/lib/http/contracts/admin-models";
import { runAuthContract } from "@/test/auth-contract";
import { withEnv } from "@/test/env";
import { createActor } from "@/test/factories";
import { call } from "@/test/http";
import { POST as upsert } from "../route";
import { GET, PUT } from "./route";

const admin = async () => (await createActor({ role: "admin" })).session;
const path = (modelId: string) => `/admin/models/routes?modelId=${encodeURIComponent(modelId)}`;

/** A model of our own with slashes in its id: 0.05 ₽ per image, 10 % off, so 0.045 ₽ is charged. */
async function pricedModel(session: string, modelId = `acme/${crypto.randomUUID().slice(0, 8)}/routes`) {
  const res = await call(upsert, "/admin/models", {
    body: {
      modelId,
      displayName: "Routes",
      category: "text-to-image",
      originalPriceRub: "0.05",
      priceUnit: "image",
      discountPercent: "10",
    },
    session,
  });
  expect(res.status).toBe(201);
  return modelId;
}

const put = (session: string, body: unknown) => call(PUT, "/admin/models/routes", { method: "PUT", body, session });

describe("success", () => {
  test("a model without routes answers an empty list with its unit price", async () => {
    const session = await admin();
    const modelId = await pricedModel(session);
    const res = await call(GET, path(modelId), { session });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ modelId, priceRub: 0.045, priceUnit: "image", routes: [] });
  });

  test("PUT replaces the routes in the order given; GET answers them with credentials and margins", async () => {
    const session = await admin();
    const modelId = await pricedModel(session);
    const routes = [
      { provider: "replicate", endpointId: "acme/routes:abc123", inputMap: { prompt: "text" }, costRub: "0.03" },
      { provider: "local", endpointId: "acme/local", costRub: 0.05, enabled: false },
      { provider: "fal", endpointId: "fal-ai/routes" },
    ];
    const res = await put(session, { modelId, routes });
    expect(res.status).toBe(200);
    const expected = {
      modelId,
      priceRub: 0.045,
      priceUnit: "image",
      routes: [
        {
          provider: "replicate",
          endpointId: "acme/routes:abc123",
          inputMap: { prompt: "text" },
          costRub: 0.03,
          enabled: true,
          position: 0,
          configured: false,
          marginRub: 0.015,
          marginPercent: 33.33,
        },
        {
          provider: "local",
          endpointId: "acme/local",
          inputMap: {},
          costRub: 0.05,
          enabled: false,
          position: 1,
          configured: true,
          marginRub: -0.005,
          marginPercent: -11.11,
        },
        {
          provider: "fal",
          endpointId: "fal-ai/routes",
          inputMap: {},
          costRub: null,
          enabled: true,
          position: 2,
          configured: false,
          marginRub: null,
          marginPercent: null,
        },
      ],
    };
    expect(res.body).toEqual(expected);
    expect(adminModelRoutesResponse.parse(res.body)).toEqual(res.body);
    expect((await call(GET, path(modelId), { session })).body).toEqual(expected);

    const db = await getDb();
    const rows = await db.select().from(modelRoutes).where(eq(modelRoutes.modelId, modelId)).orderBy(asc(modelRoutes.position));
    expect(rows.map((r) => [r.provider, r.position, r.costRub === null ? null : Number(r.costRub), r.enabled])).toEqual([
      ["replicate", 0, 0.03, true],
      ["local", 1, 0.05, false],
      ["fal", 2, null, true],
    ]);

    // A provider whose credentials are set counts as configured.
    const configured = await withEnv({ FAL_KEY: "test:secret" }, () => call(GET, path(modelId), { session }));
    expect(configured.body.routes.map((r: { provider: string; configured: boolean }) => [r.provider, r.configured])).toEqual([
      ["replicate", false],
      ["local", true],
      ["fal", true],
    ]);
  });

  test("a new order replaces the old one, and [] removes every route", async () => {
    const session = await admin();
    const modelId = await pricedModel(session);
    await put(session, {
      modelId,
      routes: [
        { provider: "fal", endpointId: "a" },
        { provider: "local", endpointId: "b" },
      ],
    });
    const swapped = await put(session, {
      modelId,
      routes: [
        { provider: "local", endpointId: "b" },
        { provider: "fal", endpointId: "a2" },
      ],
    });
    expect(
      swapped.body.routes.map((r: { provider: string; endpointId: string; position: number }) => [r.provider, r.endpointId, r.position]),
    ).toEqual([
      ["local", "b", 0],
      ["fal", "a2", 1],
    ]);
    const cleared = await put(session, { modelId, routes: [] });
    expect(cleared.status).toBe(200);
    expect(cleared.body.routes).toEqual([]);
    const db = await getDb();
    expect(await db.$count(modelRoutes, eq(modelRoutes.modelId, modelId))).toBe(0);
  });

  test("a model priced per request (no unit price) takes its margin from the fixed price", async () => {
    const session = await admin();
    const modelId = `acme/${crypto.randomUUID().slice(0, 8)}/fixed`;
    await call(upsert, "/admin/models", { body: { modelId, displayName: "Fixed", category: "text-to-image", creditCost: 2 }, session });
    const res = await put(session, { modelId, routes: [{ provider: "local", endpointId: "x", costRub: "0.5" }] });
    expect(res.body).toMatchObject({ priceRub: 2, priceUnit: "request", routes: [{ marginRub: 1.5, marginPercent: 75 }] });
  });
});

describe("validation", () => {
  test("a bad body → 400 invalid_body with its issues, and nothing changes", async () => {
    const session = await admin();
    const modelId = await pricedModel(session);
    await put(session, { modelId, routes: [{ provider: "local", endpointId: "kept" }] });
    const bad = [
      [
        {
          modelId,
          routes: [
            { provider: "fal", endpointId: "a" },
            { provider: "fal", endpointId: "b" },
          ],
        },
        ["routes"],
      ],
      [{ modelId, routes: [{ provider: "openai", endpointId: "a" }] }, ["routes", "0", "provider"]],
      [{ modelId, routes: [{ provider: "fal", endpointId: " " }] }, ["routes", "0", "endpointId"]],
      [{ modelId, routes: [{ provider: "fal", endpointId: "a", costRub: "-1" }] }, ["routes", "0", "costRub"]],
      [{ modelId, routes: [{ provider: "fal", endpointId: "a", costRub: "0.123456789" }] }, ["routes", "0", "costRub"]],
      [
        { modelId, routes: [{ provider: "fal", endpointId: "a", inputMap: { prompt: "no spaces" } }] },
        ["routes", "0", "inputMap", "prompt"],
      ],
      [{ routes: [] }, ["modelId"]],
    ] as const;
    for (const [body, at] of bad) {
      const res = await put(session, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body).toMatchObject({ success: false, error: "invalid_body", issues: [expect.objectContaining({ path: at })] });
    }
    expect((await call(GET, path(modelId), { session })).body.routes).toMatchObject([{ provider: "local", endpointId: "kept" }]);
  });

  test("GET without modelId → 400 invalid_query", async () => {
    const res = await call(GET, "/admin/models/routes", { session: await admin() });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ success: false, error: "invalid_query", issues: [{ path: ["modelId"] }] });
  });

  test("a model not in the catalog → 404 unknown_model, on GET and PUT", async () => {
    const session = await admin();
    for (const res of [
      await call(GET, path("acme/not/here"), { session }),
      await put(session, { modelId: "acme/not/here", routes: [{ provider: "local", endpointId: "x" }] }),
    ]) {
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ success: false, error: "unknown_model", message: "Unknown model: acme/not/here" });
    }
  });

  test("other methods → 405 with Allow", async () => {
    const { POST } = await import("./route");
    const res = await call(POST, "/admin/models/routes", { body: {}, session: await admin() });
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe("GET, HEAD, OPTIONS, PUT");
  });
});

describe("auth", () => {
  runAuthContract("GET /admin/models/routes", GET, path("fal-ai/flux/dev"), "admin");
  runAuthContract("PUT /admin/models/routes", PUT, "/admin/models/routes", "admin", () => ({
    method: "PUT",
    body: { modelId: "fal-ai/flux/dev", routes: [] },
  }));
});
