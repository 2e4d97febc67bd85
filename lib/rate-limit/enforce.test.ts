import { eq, sql } from "drizzle-orm";
import { describe, expect, test, vi } from "vitest";
import { getDb } from "@/db/client";
import { apiKeys, balances, rateLimitWindows } from "@/db/schema";
import { withGateway, withSkill } from "@/lib/http/handler";
import { testOperation } from "@/test/operations";
import { json } from "@/lib/http/json";
import { createActor, createApiKey, createSession, createUser } from "@/test/factories";
import { call } from "@/test/http";
import { HANG_MS } from "@/test/wait";
import { HOUR_MS, webhookIpLimit, type RateLimitRule } from "./rules";
import { keyWindowKey } from "./sliding-window";
import { flushUsageCounts } from "./usage-counts";
import { skillTierLimit, tierForSpent } from "./tiers";

const ok = withGateway(testOperation("key"), () => json({ ok: true }));
const threePerUser: RateLimitRule = { name: "test-gen", by: "user", max: 3, windowMs: HOUR_MS, describe: (m) => `limit ${m}` };
const generate = withGateway(testOperation("key"), () => json({ ok: true }), { rateLimit: [threePerUser] });
const notify = withGateway(testOperation("none"), () => json({ ok: true }), { rateLimit: [webhookIpLimit] });
const skillGenerate = withSkill(testOperation("key", "skill"), () => json({ ok: true }), { rateLimit: [skillTierLimit] });

async function tuneKey(id: string, set: Partial<typeof apiKeys.$inferInsert>) {
  await (await getDb()).update(apiKeys).set(set).where(eq(apiKeys.id, id));
}

/** Moves every recorded hit of a window back in time, as if `ms` had passed. */
async function age(windowKey: string, ms: number) {
  await (
    await getDb()
  )
    .update(rateLimitWindows)
    .set({ times: sql`array(select t - ${ms}::bigint from unnest(${rateLimitWindows.times}) as t order by t)` })
    .where(eq(rateLimitWindows.key, windowKey));
}

function expectLimited(res: { status: number; body: any; headers: Headers }, limit: number) {
  expect(res.status).toBe(429);
  expect(res.body).toEqual({ success: false, error: "rate_limited", message: expect.any(String) });
  expect(Number(res.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
  expect(res.headers.get("x-ratelimit-limit")).toBe(String(limit));
  expect(res.headers.get("x-ratelimit-remaining")).toBe("0");
  expect(Number(res.headers.get("x-ratelimit-reset"))).toBeGreaterThan(Date.now() / 1000);
  expect(res.headers.get("x-request-id")).toBeTruthy();
}

describe("per-key limit", () => {
  test("N parallel requests against a key limit of M: exactly M pass, the rest get 429 with all four headers", async () => {
    const { apiKey, key } = await createActor();
    await tuneKey(apiKey.id, { rateLimitMax: 6 });
    const results = await Promise.all(Array.from({ length: 30 }, () => call(ok, "/me", { key })));
    const passed = results.filter((r) => r.status === 200);
    expect(passed).toHaveLength(6);
    for (const res of results.filter((r) => r.status !== 200)) expectLimited(res, 6);
    const remaining = passed.map((r) => Number(r.headers.get("x-ratelimit-remaining"))).sort();
    expect(remaining).toEqual([0, 1, 2, 3, 4, 5]);
    const [row] = await (await getDb()).select().from(apiKeys).where(eq(apiKeys.id, apiKey.id));
    expect(row!.requestCount).toBe(6);
  });

  test("the window slides: once the oldest hits leave it, requests pass again", async () => {
    const { apiKey, key } = await createActor();
    await tuneKey(apiKey.id, { rateLimitMax: 2, rateLimitTimeWindow: 60_000 });
    expect((await call(ok, "/me", { key })).status).toBe(200);
    await age(keyWindowKey(apiKey.id), 30_000);
    expect((await call(ok, "/me", { key })).status).toBe(200);
    expectLimited(await call(ok, "/me", { key }), 2);
    await age(keyWindowKey(apiKey.id), 30_001); // the first hit is now 60.001 s old, the second 30.001 s
    const res = await call(ok, "/me", { key });
    expect(res.status).toBe(200);
    expect(res.headers.get("x-ratelimit-remaining")).toBe("0");
    expectLimited(await call(ok, "/me", { key }), 2);
  });

  test("the default is RATE_LIMIT_KEY_PER_HOUR, and successful responses carry the headers", async () => {
    const { key } = await createActor();
    const res = await call(ok, "/me", { key });
    expect(res.headers.get("x-ratelimit-limit")).toBe("1000");
    expect(res.headers.get("x-ratelimit-remaining")).toBe("999");
  });

  test("keys are limited separately; sessions are not key-limited", async () => {
    const user = await createUser();
    const a = await createApiKey(user);
    const b = await createApiKey(user);
    await tuneKey(a.id, { rateLimitMax: 1 });
    expect((await call(ok, "/me", { key: a.key })).status).toBe(200);
    expect((await call(ok, "/me", { key: a.key })).status).toBe(429);
    expect((await call(ok, "/me", { key: b.key })).status).toBe(200);
    const session = await createSession(user);
    const viaSession = await call(ok, "/me", { session: session.token });
    expect(viaSession.status).toBe(200);
    expect(viaSession.headers.get("x-ratelimit-limit")).toBeNull();
  });

  test("a key whose limit an admin switched off is never refused, and its requests are still counted (within a second)", async () => {
    const { apiKey, key } = await createActor();
    await tuneKey(apiKey.id, { rateLimitEnabled: false, rateLimitMax: 1 });
    for (let i = 0; i < 4; i++) expect((await call(ok, "/me", { key })).status).toBe(200);
    const countOf = async () => (await (await getDb()).select().from(apiKeys).where(eq(apiKeys.id, apiKey.id)))[0]!.requestCount;
    // Written by the flush timer, not by the requests (usage-counts.ts).
    await vi.waitFor(async () => expect(await countOf()).toBe(4), { timeout: HANG_MS, interval: 100 });
    await call(ok, "/me", { key });
    await flushUsageCounts();
    expect(await countOf()).toBe(5);
  });
  test("with its limit off, a key's requests are counted beside the route's rules, refused ones too, exactly", async () => {
    const { apiKey, key } = await createActor();
    await tuneKey(apiKey.id, { rateLimitEnabled: false });
    const answers = await Promise.all(Array.from({ length: 6 }, () => call(generate, "/run/x", { key, method: "POST" })));
    expect(answers.map((r) => r.status).sort()).toEqual([200, 200, 200, 429, 429, 429]);
    const [row] = await (await getDb()).select().from(apiKeys).where(eq(apiKeys.id, apiKey.id));
    expect(row!.requestCount).toBe(6);
  });
});

describe("route rules", () => {
  test("a per-user rule is shared by all of a user's keys and sessions", async () => {
    const user = await createUser();
    const k1 = await createApiKey(user);
    const k2 = await createApiKey(user);
    const s = await createSession(user);
    expect((await call(generate, "/run/x", { key: k1.key, method: "POST" })).status).toBe(200);
    expect((await call(generate, "/run/x", { key: k2.key, method: "POST" })).status).toBe(200);
    const third = await call(generate, "/run/x", { session: s.token, method: "POST" });
    expect(third.headers.get("x-ratelimit-remaining")).toBe("0");
    expectLimited(await call(generate, "/run/x", { key: k1.key, method: "POST" }), 3);
    const other = await createActor();
    expect((await call(generate, "/run/x", { key: other.key, method: "POST" })).status).toBe(200);
  });

  test("the IP rule counts by the client address (the socket's peer; X-Forwarded-For is not believed)", async () => {
    const from = (ip: string) => ({
      method: "POST",
      socket: ip,
      headers: { "x-forwarded-for": `6.6.6.${Math.floor(Math.random() * 250)}` },
    });
    const ip = `10.9.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`;
    const results = await Promise.all(Array.from({ length: 105 }, () => call(notify, "/webhooks/yookassa/notify", from(ip))));
    expect(results.filter((r) => r.status === 200)).toHaveLength(100);
    expectLimited(
      results.find((r) => r.status === 429)!,
      100,
    );
    expect((await call(notify, "/webhooks/yookassa/notify", from("10.200.0.1"))).status).toBe(200);
  });

  test("the skill tier limit follows total spend, and the skill surface answers RATE_LIMITED", async () => {
    expect(tierForSpent(0)).toEqual({ tier: 1, rpm: 10 });
    expect(tierForSpent(1000 * 10_000 - 1)).toEqual({ tier: 1, rpm: 10 });
    expect(tierForSpent(1000 * 10_000)).toEqual({ tier: 2, rpm: 30 });
    expect(tierForSpent(100_000 * 10_000)).toEqual({ tier: 4, rpm: 120 });
    const { user, key } = await createActor();
    const results = await Promise.all(Array.from({ length: 12 }, () => call(skillGenerate, "/api/v1/generate", { key, method: "POST" })));
    expect(results.filter((r) => r.status === 200)).toHaveLength(10);
    const refused = results.find((r) => r.status === 429)!;
    expect(refused.body).toEqual({ error: expect.any(String), code: "RATE_LIMITED", details: { reason: "rate_limited" } });
    expect(refused.headers.get("x-ratelimit-limit")).toBe("10");
    expect(refused.headers.get("retry-after")).toBeTruthy();
    await (await getDb()).insert(balances).values({ userId: user.id, spentCredits: 1000 * 10_000 });
    const promoted = await call(skillGenerate, "/api/v1/generate", { key, method: "POST" });
    expect(promoted.status).toBe(200);
    expect(promoted.headers.get("x-ratelimit-limit")).toBe("30");
  });
});
