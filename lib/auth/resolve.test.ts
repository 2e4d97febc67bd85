import { eq } from "drizzle-orm";
import { describe, expect, test } from "vitest";
import { GET as GET_ME } from "@/app/(gateway)/me/route";
import { getDb } from "@/db/client";
import { apiKeys, users } from "@/db/schema";
import { withGateway, withSkill } from "@/lib/http/handler";
import { testOperation } from "@/test/operations";
import { json } from "@/lib/http/json";
import { createApiKey, createSession, createUser } from "@/test/factories";
import { withEnv } from "@/test/env";
import { call } from "@/test/http";
import { hashApiKey } from "./api-key";

const whoami = withGateway(testOperation("key"), ({ ctx }) =>
  json({ userId: ctx.principal.userId, source: ctx.principal.source, apiKeyId: ctx.principal.apiKeyId }),
);
const dashboardOnly = withGateway(testOperation("session"), ({ ctx }) => json({ userId: ctx.principal.userId }));
const adminOnly = withGateway(testOperation("admin"), ({ ctx }) => json({ userId: ctx.principal.userId }));
const skillWhoami = withSkill(testOperation("key", "skill"), ({ ctx }) => json({ userId: ctx.principal.userId }));

const unauthorized = { success: false, error: "unauthorized", message: expect.any(String) };
const forbidden = { success: false, error: "forbidden", message: expect.any(String) };

describe("success", () => {
  test("a live key authenticates as its owner", async () => {
    const user = await createUser();
    const key = await createApiKey(user);
    const res = await call(whoami, "/me", { key: key.key });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ userId: user.id, source: "api_key", apiKeyId: key.id });
  });

  test("`Authorization: Key <key>` (fal's clients' scheme) authenticates like Bearer", async () => {
    const user = await createUser();
    const key = await createApiKey(user);
    const gateway = await call(whoami, "/me", { headers: { authorization: `Key ${key.key}` } });
    expect(gateway.status).toBe(200);
    expect(gateway.body).toEqual({ userId: user.id, source: "api_key", apiKeyId: key.id });
    const skill = await call(skillWhoami, "/api/v1/balance", { headers: { authorization: `key ${key.key}` } });
    expect(skill.body).toEqual({ userId: user.id });
  });

  test("a session cookie authenticates as its user", async () => {
    const user = await createUser();
    const session = await createSession(user);
    const res = await call(whoami, "/me", { session: session.token });
    expect(res.body).toEqual({ userId: user.id, source: "session", apiKeyId: null });
  });

  test("keys are stored as SHA-256 hashes, never in plaintext", async () => {
    const user = await createUser();
    const key = await createApiKey(user, { mode: "test" });
    const db = await getDb();
    const [row] = await db.select().from(apiKeys).where(eq(apiKeys.id, key.id));
    expect(row!.hash).toBe(hashApiKey(key.key));
    expect(JSON.stringify(row)).not.toContain(key.key);
    expect(key.key).toMatch(/^gw_test_[0-9A-Za-z]{40}$/);
  });
});

describe("auth", () => {
  test.each([
    ["no credentials", {}],
    ["a malformed key", { headers: { authorization: "Bearer not-a-key" } }],
    ["a malformed key under the Key scheme", { headers: { authorization: "Key not-a-key" } }],
    ["an unknown key under the Key scheme", { headers: { authorization: `Key gw_live_${"a".repeat(40)}` } }],
    ["a non-bearer scheme", { headers: { authorization: "Basic Zm9vOmJhcg==" } }],
    ["an unknown key", { headers: { authorization: `Bearer gw_live_${"a".repeat(40)}` } }],
    ["an unknown session", { session: "00000000-0000-0000-0000-000000000000" }],
  ])("%s → 401 unauthorized", async (_, options) => {
    const res = await call(whoami, "/me", options);
    expect(res.status).toBe(401);
    expect(res.body).toEqual(unauthorized);
  });

  test("a disabled key → 401", async () => {
    const key = await createApiKey(await createUser(), { enabled: false });
    expect((await call(whoami, "/me", { key: key.key })).body).toEqual(unauthorized);
  });

  test("an expired key → 401", async () => {
    const key = await createApiKey(await createUser(), { expiresAt: new Date(Date.now() - 1000) });
    expect((await call(whoami, "/me", { key: key.key })).status).toBe(401);
  });

  test("an expired session → 401", async () => {
    const session = await createSession(await createUser(), { expires: new Date(Date.now() - 1000) });
    expect((await call(whoami, "/me", { session: session.token })).status).toBe(401);
  });

  test("behind an https APP_URL only the __Secure- cookie counts: the bare name is refused exactly like no cookie", async () => {
    const session = await createSession(await createUser());
    await withEnv({ APP_URL: "https://gateway.example.com" }, async () => {
      for (const route of [GET_ME, whoami]) {
        const none = await call(route, "/me");
        const bare = await call(route, "/me", { headers: { cookie: `authjs.session-token=${session.token}` } });
        expect(none.status).toBe(401);
        expect({ status: bare.status, body: bare.body }).toEqual({ status: none.status, body: none.body });
        const prefixed = await call(route, "/me", { headers: { cookie: `__Secure-authjs.session-token=${session.token}` } });
        expect(prefixed.status).toBe(200);
      }
    });
    // Over http Auth.js sets the bare name, and it counts.
    expect((await call(whoami, "/me", { session: session.token })).status).toBe(200);
  });

  test("a banned user → 403 for keys and sessions; an expired ban no longer applies", async () => {
    const banned = await createUser({ banned: true, banReason: "abuse" });
    const key = await createApiKey(banned);
    const session = await createSession(banned);
    expect((await call(whoami, "/me", { key: key.key })).body).toEqual(forbidden);
    expect((await call(whoami, "/me", { session: session.token })).body).toEqual(forbidden);
    const lapsed = await createUser({ banned: true, banExpires: new Date(Date.now() - 1000) });
    expect((await call(whoami, "/me", { key: (await createApiKey(lapsed)).key })).status).toBe(200);
  });

  test("dashboard-only routes refuse API keys with 403 and accept sessions", async () => {
    const user = await createUser();
    const key = await createApiKey(user);
    const session = await createSession(user);
    expect((await call(dashboardOnly, "/me/keys", { key: key.key })).body).toEqual(forbidden);
    expect((await call(dashboardOnly, "/me/keys", { session: session.token })).status).toBe(200);
  });

  test("admin routes need an admin's session: an admin's key and a user's session get 403", async () => {
    const admin = await createUser({ role: "admin" });
    const user = await createUser();
    expect((await call(adminOnly, "/admin/stats", { key: (await createApiKey(admin)).key })).body).toEqual(forbidden);
    expect((await call(adminOnly, "/admin/stats", { session: (await createSession(user)).token })).body).toEqual(forbidden);
    expect((await call(adminOnly, "/admin/stats", { session: (await createSession(admin)).token })).status).toBe(200);
  });

  describe("a key that called before is remembered, but every request is held to the database's standing", () => {
    const limited = withGateway(testOperation("key"), ({ ctx }) => json({ userId: ctx.principal.userId, email: ctx.principal.email }), {
      rateLimit: [{ name: "t-user", by: "user", max: 1000, windowMs: 60_000, describe: () => "limit" }],
    });
    const setKey = async (id: string, values: Partial<typeof apiKeys.$inferInsert>) =>
      (await getDb()).update(apiKeys).set(values).where(eq(apiKeys.id, id));

    test.each([
      ["disabled", (id: string) => setKey(id, { enabled: false }), unauthorized],
      ["expired", (id: string) => setKey(id, { expiresAt: new Date(Date.now() - 1000) }), unauthorized],
      ["deleted", async (id: string) => (await getDb()).delete(apiKeys).where(eq(apiKeys.id, id)), unauthorized],
    ])("%s after its first call → refused on the very next request, on every route shape", async (_, change, refused) => {
      for (const route of [whoami, limited]) {
        const key = await createApiKey(await createUser());
        expect((await call(route, "/me", { key: key.key })).status).toBe(200);
        await change(key.id);
        const res = await call(route, "/me", { key: key.key });
        expect(res.body).toEqual(refused);
      }
    });

    test("its user banned after the first call → 403; a change of details is answered fresh", async () => {
      const user = await createUser();
      const key = await createApiKey(user);
      expect((await call(limited, "/me", { key: key.key })).body).toEqual({ userId: user.id, email: user.email });
      await (
        await getDb()
      )
        .update(users)
        .set({ email: `renamed-${user.id}@example.test` })
        .where(eq(users.id, user.id));
      expect((await call(limited, "/me", { key: key.key })).body).toEqual({ userId: user.id, email: `renamed-${user.id}@example.test` });
      await (await getDb()).update(users).set({ banned: true }).where(eq(users.id, user.id));
      expect((await call(limited, "/me", { key: key.key })).body).toEqual(forbidden);
      expect((await call(whoami, "/me", { key: key.key })).body).toEqual(forbidden);
    });

    test("a key over its own limit that was disabled meanwhile is told 401, not 429", async () => {
      const key = await createApiKey(await createUser());
      await setKey(key.id, { rateLimitEnabled: true, rateLimitMax: 1, rateLimitTimeWindow: 60_000 });
      expect((await call(whoami, "/me", { key: key.key })).status).toBe(200);
      expect((await call(whoami, "/me", { key: key.key })).status).toBe(429);
      await setKey(key.id, { enabled: false });
      expect((await call(whoami, "/me", { key: key.key })).body).toEqual(unauthorized);
    });
  });

  test("the skill surface answers 401 with code UNAUTHORIZED", async () => {
    const res = await call(skillWhoami, "/api/v1/balance");
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ error: expect.any(String), code: "UNAUTHORIZED", details: { reason: "unauthorized" } });
  });
});
