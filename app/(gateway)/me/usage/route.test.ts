import { describe, expect, test } from "vitest";
import { meUsageSchema, usageByKeySchema, usageByModelSchema, usageHistorySchema } from "@/lib/http/contracts/money";
import { runAuthContract } from "@/test/auth-contract";
import { createActor, createApiKey } from "@/test/factories";
import { call } from "@/test/http";
import { grant, insertActivity } from "@/test/money";
import { GET as BY_KEY } from "./by-key/route";
import { GET as BY_MODEL } from "./by-model/route";
import { GET as HISTORY } from "./history/route";
import { GET } from "./route";

const H = 3_600_000;
const D = 24 * H;
const invalidQuery = (path: string[]) => ({
  success: false,
  error: "invalid_query",
  message: expect.any(String),
  issues: [{ path, message: expect.any(String) }],
});

describe("GET /me/usage", () => {
  describe("success", () => {
    test("the balance and, per window, credits and counts by model (sandbox and other users left out)", async () => {
      const me = await createActor();
      const other = await createActor();
      await grant(me.user.id, 50_000);
      await insertActivity(me.user.id, [
        { modelId: "m/one", credits: 100, at: 1000 },
        { modelId: "m/one", credits: 50, at: 2 * D },
        { modelId: "m/two", credits: 7, at: 1000 },
        { modelId: "m/two", credits: 0, at: 1000, status: "failed" },
        { modelId: "m/two", credits: 999, at: 1000, sandbox: true },
        { modelId: "m/three", credits: 30, at: 10 * D },
      ]);
      await insertActivity(other.user.id, [{ modelId: "m/one", credits: 5000, at: 1000 }]);
      const res = await call(GET, "/me/usage", { key: me.key });
      expect(res.status).toBe(200);
      expect(meUsageSchema.parse(res.body)).toEqual(res.body);
      expect(res.body).toEqual({
        balance: 50_000,
        windows: [
          {
            window: "24h",
            credits: 107,
            count: 3,
            byModel: [
              { modelId: "m/one", credits: 100, count: 1 },
              { modelId: "m/two", credits: 7, count: 2 },
            ],
          },
          {
            window: "7d",
            credits: 157,
            count: 4,
            byModel: [
              { modelId: "m/one", credits: 150, count: 2 },
              { modelId: "m/two", credits: 7, count: 2 },
            ],
          },
          {
            window: "30d",
            credits: 187,
            count: 5,
            byModel: [
              { modelId: "m/one", credits: 150, count: 2 },
              { modelId: "m/three", credits: 30, count: 1 },
              { modelId: "m/two", credits: 7, count: 2 },
            ],
          },
        ],
      });
    });

    test("?windows= picks the windows in the order given, without repeats; a user with nothing gets zeros", async () => {
      const me = await createActor();
      const res = await call(GET, "/me/usage?windows=1h,%2090d,1h", { session: me.session });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        balance: 0,
        windows: [
          { window: "1h", credits: 0, count: 0, byModel: [] },
          { window: "90d", credits: 0, count: 0, byModel: [] },
        ],
      });
    });
  });

  describe("validation", () => {
    test.each(["2d", "24h,week", "x".repeat(300)])("?windows=%s → 400 invalid_query", async (windows) => {
      const me = await createActor();
      const res = await call(GET, `/me/usage?windows=${windows}`, { key: me.key });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({
        error: "invalid_query",
        issues: [expect.objectContaining({ path: expect.arrayContaining(["windows"]) })],
      });
    });
  });

  runAuthContract("GET /me/usage", GET, "/me/usage", "key");
});

describe("GET /me/usage/history", () => {
  describe("success", () => {
    test("daily buckets over [from, to), zero-filled, UTC, sandbox and other users left out", async () => {
      const me = await createActor();
      const other = await createActor();
      await insertActivity(me.user.id, [
        { credits: 10, at: new Date("2026-03-01T00:00:00Z") },
        { credits: 20, at: new Date("2026-03-01T23:59:59.999Z") },
        { credits: 5, at: new Date("2026-03-03T12:00:00Z") },
        { credits: 500, at: new Date("2026-03-03T12:00:00Z"), sandbox: true },
        { credits: 1, at: new Date("2026-02-28T23:59:59.999Z") },
        { credits: 2, at: new Date("2026-03-04T00:00:00Z") },
      ]);
      await insertActivity(other.user.id, [{ credits: 900, at: new Date("2026-03-02T10:00:00Z") }]);
      const res = await call(HISTORY, "/me/usage/history?from=2026-03-01T00:00:00Z&to=2026-03-04T00:00:00Z&granularity=day", {
        key: me.key,
      });
      expect(res.status).toBe(200);
      expect(usageHistorySchema.parse(res.body)).toEqual(res.body);
      expect(res.body).toEqual({
        granularity: "day",
        from: "2026-03-01T00:00:00.000Z",
        to: "2026-03-04T00:00:00.000Z",
        series: [
          { bucket: "2026-03-01T00:00:00.000Z", credits: 30, count: 2 },
          { bucket: "2026-03-02T00:00:00.000Z", credits: 0, count: 0 },
          { bucket: "2026-03-03T00:00:00.000Z", credits: 5, count: 1 },
        ],
      });
    });

    test("hourly buckets start at the hour holding `from`; offsets are read as UTC instants", async () => {
      const me = await createActor();
      await insertActivity(me.user.id, [
        { credits: 3, at: new Date("2026-03-05T10:40:00Z") },
        { credits: 4, at: new Date("2026-03-05T11:05:00Z") },
        { credits: 9, at: new Date("2026-03-05T10:10:00Z") },
      ]);
      const res = await call(HISTORY, "/me/usage/history?from=2026-03-05T13:30:00%2B03:00&to=2026-03-05T12:00:00Z&granularity=hour", {
        key: me.key,
      });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        granularity: "hour",
        from: "2026-03-05T10:30:00.000Z",
        to: "2026-03-05T12:00:00.000Z",
        series: [
          { bucket: "2026-03-05T10:00:00.000Z", credits: 3, count: 1 },
          { bucket: "2026-03-05T11:00:00.000Z", credits: 4, count: 1 },
        ],
      });
    });

    test("weekly buckets start on Monday (UTC)", async () => {
      const me = await createActor();
      // 2026-03-02 is a Monday.
      await insertActivity(me.user.id, [
        { credits: 1, at: new Date("2026-03-01T23:00:00Z") },
        { credits: 2, at: new Date("2026-03-02T00:00:00Z") },
        { credits: 4, at: new Date("2026-03-08T23:59:59Z") },
        { credits: 8, at: new Date("2026-03-09T00:00:00Z") },
      ]);
      const res = await call(HISTORY, "/me/usage/history?from=2026-02-25T00:00:00Z&to=2026-03-10T00:00:00Z&granularity=week", {
        key: me.key,
      });
      expect(res.body.series).toEqual([
        { bucket: "2026-02-23T00:00:00.000Z", credits: 1, count: 1 },
        { bucket: "2026-03-02T00:00:00.000Z", credits: 6, count: 2 },
        { bucket: "2026-03-09T00:00:00.000Z", credits: 8, count: 1 },
      ]);
    });

    test("defaults: granularity day, the last 30 days up to now (30 or 31 buckets, the last holding today's spend)", async () => {
      const me = await createActor();
      await insertActivity(me.user.id, [{ credits: 42, at: 0 }]);
      const res = await call(HISTORY, "/me/usage/history", { key: me.key });
      expect(res.status).toBe(200);
      expect(res.body.granularity).toBe("day");
      expect(Date.parse(res.body.to) - Date.parse(res.body.from)).toBe(30 * D);
      expect(res.body.series.length).toBe(31);
      expect(res.body.series.at(-1)).toEqual({ bucket: `${new Date().toISOString().slice(0, 10)}T00:00:00.000Z`, credits: 42, count: 1 });
    });
  });

  describe("validation", () => {
    test.each([
      ["granularity=month", ["granularity"]],
      ["from=yesterday", ["from"]],
      ["to=2026-13-01T00:00:00Z", ["to"]],
      ["from=2026-03-02T00:00:00Z&to=2026-03-01T00:00:00Z", ["from"]],
      ["from=2026-03-01T00:00:00Z&to=2026-03-01T00:00:00Z", ["from"]],
      ["from=2025-01-01T00:00:00Z&to=2026-03-01T00:00:00Z&granularity=hour", ["from"]],
    ])("?%s → 400 invalid_query", async (qs, path) => {
      const me = await createActor();
      const res = await call(HISTORY, `/me/usage/history?${qs}`, { key: me.key });
      expect(res.status).toBe(400);
      expect(res.body).toEqual(invalidQuery(path));
    });
  });

  runAuthContract("GET /me/usage/history", HISTORY, "/me/usage/history", "key");
});

describe("GET /me/usage/by-model", () => {
  test("spend per model over the window with catalog name and unit (null for an unknown model), most expensive first", async () => {
    const me = await createActor();
    await insertActivity(me.user.id, [
      { modelId: "fal-ai/flux/dev", credits: 300, at: 1000 },
      { modelId: "fal-ai/flux/dev", credits: 200, at: 3 * D },
      { modelId: "gone/model", credits: 400, at: 1000 },
      { modelId: "gone/model", credits: 400, at: 40 * D },
      { modelId: "fal-ai/flux/dev", credits: 999, at: 1000, sandbox: true },
    ]);
    const res = await call(BY_MODEL, "/me/usage/by-model", { key: me.key });
    expect(res.status).toBe(200);
    expect(usageByModelSchema.parse(res.body)).toEqual(res.body);
    expect(res.body).toEqual({
      items: [
        { modelId: "fal-ai/flux/dev", displayName: expect.any(String), priceUnit: expect.any(String), credits: 500, count: 2 },
        { modelId: "gone/model", displayName: null, priceUnit: null, credits: 400, count: 1 },
      ],
    });
    const day = await call(BY_MODEL, "/me/usage/by-model?window=24h", { key: me.key });
    expect(day.body.items.map((i: { modelId: string; credits: number }) => [i.modelId, i.credits])).toEqual([
      ["gone/model", 400],
      ["fal-ai/flux/dev", 300],
    ]);
  });

  test("?window=2w → 400 invalid_query", async () => {
    const me = await createActor();
    const res = await call(BY_MODEL, "/me/usage/by-model?window=2w", { key: me.key });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(invalidQuery(["window"]));
  });

  runAuthContract("GET /me/usage/by-model", BY_MODEL, "/me/usage/by-model", "key");
});

describe("GET /me/usage/by-key", () => {
  test("spend per key with name and partial key; dashboard spend as apiKeyId null; a deleted key keeps its id", async () => {
    const me = await createActor();
    const second = await createApiKey(me.user, { name: "ci" });
    const other = await createActor();
    const recent = new Date(Date.now() - 5000);
    await insertActivity(me.user.id, [
      { apiKeyId: me.apiKey.id, credits: 10, at: 60_000 },
      { apiKeyId: me.apiKey.id, credits: 15, at: recent },
      { apiKeyId: second.id, credits: 100, at: 1000 },
      { apiKeyId: null, credits: 1, at: 1000 },
      { apiKeyId: "key_deleted", credits: 2, at: 1000 },
      { apiKeyId: other.apiKey.id, credits: 3, at: 1000 },
      { apiKeyId: me.apiKey.id, credits: 70, at: 31 * D },
    ]);
    const res = await call(BY_KEY, "/me/usage/by-key?window=30d", { session: me.session });
    expect(res.status).toBe(200);
    expect(usageByKeySchema.parse(res.body)).toEqual(res.body);
    const lastAt = (id: string | null) => res.body.items.find((i: { apiKeyId: string | null }) => i.apiKeyId === id).lastUsedAt;
    expect(res.body.items).toEqual([
      { apiKeyId: second.id, keyName: "ci", partialKey: `${second.start}…`, credits: 100, count: 1, lastUsedAt: lastAt(second.id) },
      {
        apiKeyId: me.apiKey.id,
        keyName: "test key",
        partialKey: `${me.apiKey.start}…`,
        credits: 25,
        count: 2,
        lastUsedAt: recent.toISOString(),
      },
      // Another user's key id in my activity (never written in practice) lends me nothing of theirs.
      { apiKeyId: other.apiKey.id, keyName: null, partialKey: null, credits: 3, count: 1, lastUsedAt: lastAt(other.apiKey.id) },
      { apiKeyId: "key_deleted", keyName: null, partialKey: null, credits: 2, count: 1, lastUsedAt: lastAt("key_deleted") },
      { apiKeyId: null, keyName: null, partialKey: null, credits: 1, count: 1, lastUsedAt: lastAt(null) },
    ]);
  });

  test("?window= empty → 400 invalid_query", async () => {
    const me = await createActor();
    const res = await call(BY_KEY, "/me/usage/by-key?window=", { key: me.key });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(invalidQuery(["window"]));
  });

  runAuthContract("GET /me/usage/by-key", BY_KEY, "/me/usage/by-key", "key");
});
