import { eq } from "drizzle-orm";
import { describe, expect, test } from "vitest";
import { getDb } from "@/db/client";
import { activity, apiKeys, balances, sessions, users } from "@/db/schema";
import { adminKeyView, adminUserDetail, adminUserList } from "@/lib/http/contracts/admin-users";
import { apiKeyListSchema } from "@/lib/http/contracts/keys";
import { sessionListSchema } from "@/lib/http/contracts/me";
import { runAuthContract } from "@/test/auth-contract";
import { createActor, createApiKey, createSession, createUser } from "@/test/factories";
import { call } from "@/test/http";
import { GET as GET_ME } from "../../me/route";
import { POST as BAN } from "./[id]/ban/route";
import { DELETE as DELETE_KEY, PATCH as PATCH_KEY } from "./[id]/keys/[keyId]/route";
import { GET as LIST_KEYS } from "./[id]/keys/route";
import { GET as GET_USER } from "./[id]/route";
import { DELETE as REVOKE_SESSIONS, GET as LIST_SESSIONS } from "./[id]/sessions/route";
import { POST as UNBAN } from "./[id]/unban/route";
import { GET } from "./route";

const notFound = (what: string) => ({ success: false, error: "not_found", message: `${what} not found` });
const tag = () => Math.random().toString(36).slice(2, 10);

async function adminSession() {
  const admin = await createUser({ role: "admin" });
  return { admin, session: (await createSession(admin)).token };
}

describe("GET /admin/users", () => {
  test("lists users newest first with balances (0 without a row), total and paging", async () => {
    const { session } = await adminSession();
    const t = tag();
    const a = await createUser({ email: `a-${t}@example.test`, createdAt: new Date(Date.now() - 3000) });
    const b = await createUser({ email: `b-${t}@example.test`, createdAt: new Date(Date.now() - 2000) });
    const c = await createUser({ email: `c-${t}@example.test`, createdAt: new Date(Date.now() - 1000) });
    await (await getDb()).insert(balances).values({ userId: b.id, credits: 12_345 });
    const res = await call(GET, `/admin/users?q=${t}&limit=2`, { session });
    expect(res.status).toBe(200);
    expect(adminUserList.parse(res.body)).toEqual(res.body);
    expect(res.body).toMatchObject({ total: 3, limit: 2, offset: 0 });
    expect(res.body.items.map((u: { id: string }) => u.id)).toEqual([c.id, b.id]);
    expect(res.body.items[1]).toEqual({
      id: b.id,
      email: b.email,
      name: "Test User",
      role: "user",
      banned: false,
      createdAt: b.createdAt.toISOString(),
      balance: 12_345,
    });
    const page2 = await call(GET, `/admin/users?q=${t}&limit=2&offset=2`, { session });
    expect(page2.body.items.map((u: { id: string }) => u.id)).toEqual([a.id]);
    expect(page2.body.items[0].balance).toBe(0);
  });

  test("filters by role and by ban in force (a lapsed ban is not banned); search is case-insensitive and literal", async () => {
    const { session } = await adminSession();
    const t = tag();
    const admin = await createUser({ email: `adm-${t}@example.test`, role: "admin" });
    const banned = await createUser({ email: `ban-${t}@example.test`, banned: true });
    const lapsed = await createUser({ email: `lap-${t}@example.test`, banned: true, banExpires: new Date(Date.now() - 1000) });
    const ids = async (qs: string) =>
      (await call(GET, `/admin/users?q=${t}${qs}`, { session })).body.items.map((u: { id: string }) => u.id).sort();
    expect(await ids("&role=admin")).toEqual([admin.id]);
    expect(await ids("&banned=true")).toEqual([banned.id]);
    expect(await ids("&banned=false")).toEqual([admin.id, lapsed.id].sort());
    expect(await ids("").then((x: string[]) => x.length)).toBe(3);
    expect((await call(GET, `/admin/users?q=${t.toUpperCase()}`, { session })).body.total).toBe(3);
    expect((await call(GET, `/admin/users?q=%25${t}`, { session })).body.total).toBe(0);
  });

  test.each([
    ["limit=0", ["limit"]],
    ["limit=201", ["limit"]],
    ["offset=-1", ["offset"]],
    ["role=root", ["role"]],
    ["banned=maybe", ["banned"]],
    [`q=${"x".repeat(65)}`, ["q"]],
  ])("?%s → 400 invalid_query", async (qs, path) => {
    const { session } = await adminSession();
    const res = await call(GET, `/admin/users?${qs}`, { session });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      success: false,
      error: "invalid_query",
      message: expect.any(String),
      issues: [{ path, message: expect.any(String) }],
    });
  });

  runAuthContract("GET /admin/users", GET, "/admin/users", "admin");
});

describe("GET /admin/users/{id}", () => {
  test("shows the admin view, balance and usage by window and model (sandbox runs left out)", async () => {
    const { session } = await adminSession();
    const user = await createUser({ banned: true, banReason: "spam", banExpires: new Date(Date.now() + 86_400_000) });
    const db = await getDb();
    await db.insert(balances).values({ userId: user.id, credits: 5000 });
    const row = (id: string, modelId: string, credits: number, ageMs: number, sandbox = false) => ({
      id,
      userId: user.id,
      modelId,
      operation: "run",
      credits,
      status: "completed",
      sandbox,
      createdAt: new Date(Date.now() - ageMs),
    });
    await db
      .insert(activity)
      .values([
        row(`a1-${tag()}`, "m/one", 100, 1000),
        row(`a2-${tag()}`, "m/one", 50, 2 * 86_400_000),
        row(`a3-${tag()}`, "m/two", 7, 1000),
        row(`a4-${tag()}`, "m/two", 999, 1000, true),
      ]);
    const res = await call(GET_USER, "/", { session, params: { id: user.id } });
    expect(res.status).toBe(200);
    expect(adminUserDetail.parse(res.body)).toEqual(res.body);
    expect(res.body.user).toMatchObject({ id: user.id, banned: true, banReason: "spam", banExpires: user.banExpires!.toISOString() });
    expect(res.body.balance).toBe(5000);
    expect(res.body.usage).toEqual([
      {
        window: "24h",
        credits: 107,
        count: 2,
        byModel: [
          { modelId: "m/one", credits: 100, count: 1 },
          { modelId: "m/two", credits: 7, count: 1 },
        ],
      },
      {
        window: "7d",
        credits: 157,
        count: 3,
        byModel: [
          { modelId: "m/one", credits: 150, count: 2 },
          { modelId: "m/two", credits: 7, count: 1 },
        ],
      },
      {
        window: "30d",
        credits: 157,
        count: 3,
        byModel: [
          { modelId: "m/one", credits: 150, count: 2 },
          { modelId: "m/two", credits: 7, count: 1 },
        ],
      },
    ]);
  });

  test("an unknown user → 404", async () => {
    const { session } = await adminSession();
    const res = await call(GET_USER, "/", { session, params: { id: "nobody" } });
    expect(res.status).toBe(404);
    expect(res.body).toEqual(notFound("User"));
  });

  runAuthContract("GET /admin/users/{id}", GET_USER, "/admin/users/x", "admin", (u) => ({ params: { id: u.id } }));
});

describe("ban and unban", () => {
  test("a ban revokes sessions and turns keys into 403 until unbanned", async () => {
    const { session } = await adminSession();
    const target = await createActor();
    const expiresAt = new Date(Date.now() + 3_600_000).toISOString();
    const res = await call(BAN, "/", { session, params: { id: target.user.id }, body: { reason: "fraud", expiresAt } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ok: true });
    const db = await getDb();
    const [row] = await db.select().from(users).where(eq(users.id, target.user.id));
    expect(row).toMatchObject({ banned: true, banReason: "fraud", banExpires: new Date(expiresAt) });
    expect(await db.select().from(sessions).where(eq(sessions.userId, target.user.id))).toEqual([]);
    const refused = await call(GET_ME, "/me", { key: target.key });
    expect(refused.status).toBe(403);
    expect(refused.body.error).toBe("forbidden");

    const unban = await call(UNBAN, "/", { session, method: "POST", params: { id: target.user.id } });
    expect(unban.body).toEqual({ ok: true });
    const [after] = await db.select().from(users).where(eq(users.id, target.user.id));
    expect(after).toMatchObject({ banned: false, banReason: null, banExpires: null });
    expect((await call(GET_ME, "/me", { key: target.key })).status).toBe(200);
  });

  test("an indefinite ban needs no body fields", async () => {
    const { session } = await adminSession();
    const target = await createUser();
    expect((await call(BAN, "/", { session, params: { id: target.id }, body: {} })).status).toBe(200);
    const [row] = await (await getDb()).select().from(users).where(eq(users.id, target.id));
    expect(row).toMatchObject({ banned: true, banReason: null, banExpires: null });
  });

  test("an expiry in the past → 400; banning yourself → 403; an unknown user → 404", async () => {
    const { admin, session } = await adminSession();
    const target = await createUser();
    const past = await call(BAN, "/", {
      session,
      params: { id: target.id },
      body: { expiresAt: new Date(Date.now() - 1000).toISOString() },
    });
    expect(past.status).toBe(400);
    expect(past.body).toMatchObject({ error: "invalid_body", issues: [{ path: ["expiresAt"] }] });
    const self = await call(BAN, "/", { session, params: { id: admin.id }, body: {} });
    expect(self.status).toBe(403);
    expect(self.body.error).toBe("forbidden");
    expect((await call(BAN, "/", { session, params: { id: "nobody" }, body: {} })).body).toEqual(notFound("User"));
    expect((await call(UNBAN, "/", { session, method: "POST", params: { id: "nobody" } })).body).toEqual(notFound("User"));
  });

  runAuthContract("POST /admin/users/{id}/ban", BAN, "/admin/users/x/ban", "admin", async () => ({
    params: { id: (await createUser()).id },
    body: {},
  }));
  runAuthContract("POST /admin/users/{id}/unban", UNBAN, "/admin/users/x/unban", "admin", async () => ({
    method: "POST",
    params: { id: (await createUser()).id },
  }));
});

describe("a user's sessions", () => {
  test("lists and revokes all of them", async () => {
    const { session } = await adminSession();
    const target = await createActor();
    await createSession(target.user);
    const list = await call(LIST_SESSIONS, "/", { session, params: { id: target.user.id } });
    expect(sessionListSchema.parse(list.body)).toEqual(list.body);
    expect(list.body.sessions).toHaveLength(2);
    expect(list.text).not.toContain(target.session);
    const revoked = await call(REVOKE_SESSIONS, "/", { session, method: "DELETE", params: { id: target.user.id } });
    expect(revoked.status).toBe(204);
    expect((await call(GET_ME, "/me", { session: target.session })).status).toBe(401);
    expect((await call(LIST_SESSIONS, "/", { session, params: { id: target.user.id } })).body.sessions).toEqual([]);
  });

  test("an unknown user → 404", async () => {
    const { session } = await adminSession();
    expect((await call(LIST_SESSIONS, "/", { session, params: { id: "nobody" } })).body).toEqual(notFound("User"));
    expect((await call(REVOKE_SESSIONS, "/", { session, method: "DELETE", params: { id: "nobody" } })).body).toEqual(notFound("User"));
  });

  runAuthContract("GET /admin/users/{id}/sessions", LIST_SESSIONS, "/admin/users/x/sessions", "admin", (u) => ({ params: { id: u.id } }));
  runAuthContract("DELETE /admin/users/{id}/sessions", REVOKE_SESSIONS, "/admin/users/x/sessions", "admin", (u) => ({
    method: "DELETE",
    params: { id: u.id },
  }));
});

describe("a user's keys", () => {
  test("lists keys; PATCH tunes name, cap, enabled and the rate limit, returning the tuning view", async () => {
    const { session } = await adminSession();
    const target = await createActor();
    const list = await call(LIST_KEYS, "/", { session, params: { id: target.user.id } });
    expect(apiKeyListSchema.parse(list.body)).toEqual(list.body);
    expect(list.body.keys.map((k: { id: string }) => k.id)).toEqual([target.apiKey.id]);

    await call(GET_ME, "/me", { key: target.key });
    const params = { id: target.user.id, keyId: target.apiKey.id };
    const res = await call(PATCH_KEY, "/", {
      session,
      method: "PATCH",
      params,
      body: { name: "throttled", metadata: { monthlyLimitRub: 50 }, rateLimitMax: 5, rateLimitTimeWindow: 60_000 },
    });
    expect(res.status).toBe(200);
    expect(adminKeyView.parse(res.body.key)).toEqual(res.body.key);
    expect(res.body.key).toEqual({
      id: target.apiKey.id,
      name: "throttled",
      enabled: true,
      rateLimitEnabled: true,
      rateLimitTimeWindow: 60_000,
      rateLimitMax: 5,
      remaining: 4,
      monthlyLimitRub: 50,
      expiresAt: null,
      updatedAt: expect.any(String),
    });
    const off = await call(PATCH_KEY, "/", { session, method: "PATCH", params, body: { rateLimitEnabled: false, rateLimitMax: null } });
    expect(off.body.key).toMatchObject({ rateLimitEnabled: false, rateLimitMax: 1000, remaining: null });
    const [row] = await (await getDb()).select().from(apiKeys).where(eq(apiKeys.id, target.apiKey.id));
    expect(row).toMatchObject({
      name: "throttled",
      monthlyLimitRub: 50,
      rateLimitEnabled: false,
      rateLimitMax: null,
      rateLimitTimeWindow: 60_000,
    });
  });

  test("DELETE removes a user's key; a key of another user under this user's path is 404", async () => {
    const { session } = await adminSession();
    const target = await createActor();
    const other = await createActor();
    const foreign = await call(DELETE_KEY, "/", { session, method: "DELETE", params: { id: target.user.id, keyId: other.apiKey.id } });
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual(notFound("API key"));
    const patchForeign = await call(PATCH_KEY, "/", {
      session,
      method: "PATCH",
      params: { id: target.user.id, keyId: other.apiKey.id },
      body: { name: "x" },
    });
    expect(patchForeign.body).toEqual(notFound("API key"));
    expect((await call(GET_ME, "/me", { key: other.key })).status).toBe(200);
    const res = await call(DELETE_KEY, "/", { session, method: "DELETE", params: { id: target.user.id, keyId: target.apiKey.id } });
    expect(res.status).toBe(204);
    expect((await call(GET_ME, "/me", { key: target.key })).status).toBe(401);
  });

  test("an invalid tuning → 400", async () => {
    const { session } = await adminSession();
    const target = await createActor();
    const res = await call(PATCH_KEY, "/", {
      session,
      method: "PATCH",
      params: { id: target.user.id, keyId: target.apiKey.id },
      body: { rateLimitTimeWindow: 10 },
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: "invalid_body", issues: [{ path: ["rateLimitTimeWindow"] }] });
  });

  runAuthContract("GET /admin/users/{id}/keys", LIST_KEYS, "/admin/users/x/keys", "admin", (u) => ({ params: { id: u.id } }));
  runAuthContract("PATCH /admin/users/{id}/keys/{keyId}", PATCH_KEY, "/admin/users/x/keys/y", "admin", async (u) => ({
    method: "PATCH",
    params: { id: u.id, keyId: (await createApiKey(u)).id },
    body: { name: "x" },
  }));
  runAuthContract("DELETE /admin/users/{id}/keys/{keyId}", DELETE_KEY, "/admin/users/x/keys/y", "admin", async (u) => ({
    method: "DELETE",
    params: { id: u.id, keyId: (await createApiKey(u)).id },
  }));
});
