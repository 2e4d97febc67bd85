import { eq } from "drizzle-orm";
import { describe, expect, test } from "vitest";
import { getDb } from "@/db/client";
import { apiKeys } from "@/db/schema";
import { apiKeyListSchema, apiKeySchema, createdKeySchema } from "@/lib/http/contracts/keys";
import { hashApiKey } from "@/lib/auth/api-key";
import { runAuthContract } from "@/test/auth-contract";
import { createActor, createApiKey } from "@/test/factories";
import { call } from "@/test/http";
import { DELETE, PATCH } from "./[id]/route";
import { GET as GET_ME } from "../route";
import { GET, POST } from "./route";

const notFound = { success: false, error: "not_found", message: "API key not found" };

async function createKey(session: string, body: Record<string, unknown> = { name: "ci" }) {
  const res = await call(POST, "/me/keys", { session, body });
  expect(res.status).toBe(201);
  return res.body as { id: string; key: string; name: string; prefix: string; start: string; expiresAt: string | null };
}

describe("success", () => {
  test("a created key is returned once, works at once, and is stored only as its SHA-256", async () => {
    const alice = await createActor();
    const res = await call(POST, "/me/keys", { session: alice.session, body: { name: "  ci  " } });
    expect(res.status).toBe(201);
    expect(res.headers.get("cache-control")).toBe("no-store, no-transform");
    expect(createdKeySchema.parse(res.body)).toEqual(res.body);
    expect(res.body).toMatchObject({ name: "ci", prefix: "gw_live", expiresAt: null });
    expect(res.body.key).toMatch(/^gw_live_[0-9A-Za-z]{40}$/);
    expect(res.body.start).toBe(res.body.key.slice(0, 12));

    const [row] = await (await getDb()).select().from(apiKeys).where(eq(apiKeys.id, res.body.id));
    expect(row!.hash).toBe(hashApiKey(res.body.key));
    expect(JSON.stringify(row)).not.toContain(res.body.key.slice(8));

    const list = await call(GET, "/me/keys", { session: alice.session });
    expect(apiKeyListSchema.parse(list.body)).toEqual(list.body);
    expect(list.text).not.toContain(res.body.key);
    expect(list.text).not.toContain(row!.hash);
    expect(list.body.keys[0]).toMatchObject({ id: res.body.id, name: "ci", enabled: true, requests: 0 });

    const me = await call(GET_ME, "/me", { key: res.body.key });
    expect(me.body.auth).toEqual({ source: "api_key", apiKeyId: res.body.id });
  });

  test("_test_ keys are the sandbox format; expiresIn sets expiresAt", async () => {
    const alice = await createActor();
    const before = Date.now();
    const created = await createKey(alice.session, { name: "sandbox", mode: "test", expiresIn: 3600 });
    expect(created.key).toMatch(/^gw_test_[0-9A-Za-z]{40}$/);
    expect(created.prefix).toBe("gw_test");
    const expires = Date.parse(created.expiresAt!);
    expect(expires).toBeGreaterThanOrEqual(before + 3_600_000 - 1000);
    expect(expires).toBeLessThanOrEqual(Date.now() + 3_600_000 + 1000);
    const [row] = await (await getDb()).select({ mode: apiKeys.mode }).from(apiKeys).where(eq(apiKeys.id, created.id));
    expect(row!.mode).toBe("test");
  });

  test("listing shows only the caller's keys, newest first, with usage counters", async () => {
    const alice = await createActor();
    const bob = await createActor();
    const second = await createKey(alice.session, { name: "second" });
    await call(GET_ME, "/me", { key: second.key });
    await call(GET_ME, "/me", { key: second.key });
    const res = await call(GET, "/me/keys", { key: alice.key });
    expect(res.body.keys.map((k: { name: string }) => k.name)).toEqual(["second", "test key"]);
    expect(res.body.keys[0]).toMatchObject({ requests: 2, requestCount: 2, lastRequest: expect.any(String) });
    expect(res.text).not.toContain(bob.apiKey.id);
  });

  test("PATCH renames, sets and clears the monthly cap, and disables a key (session)", async () => {
    const alice = await createActor();
    const res = await call(PATCH, `/me/keys/${alice.apiKey.id}`, {
      method: "PATCH",
      session: alice.session,
      params: { id: alice.apiKey.id },
      body: { name: "prod", metadata: { monthlyLimitRub: 500 } },
    });
    expect(res.status).toBe(200);
    expect(apiKeySchema.parse(res.body)).toEqual(res.body);
    expect(res.body).toMatchObject({ id: alice.apiKey.id, name: "prod", monthlyLimitRub: 500, enabled: true });
    const cleared = await call(PATCH, "/", {
      method: "PATCH",
      session: alice.session,
      params: { id: alice.apiKey.id },
      body: { metadata: { monthlyLimitRub: null }, enabled: false },
    });
    expect(cleared.body).toMatchObject({ name: "prod", monthlyLimitRub: null, enabled: false });
    const [row] = await (await getDb()).select().from(apiKeys).where(eq(apiKeys.id, alice.apiKey.id));
    expect(row).toMatchObject({ name: "prod", monthlyLimitRub: null, enabled: false });
    expect((await call(GET_ME, "/me", { key: alice.key })).status).toBe(401);
  });

  test("with an API key, PATCH may rename but not lift the cap or re-enable (403)", async () => {
    const alice = await createActor();
    const renamed = await call(PATCH, "/", { method: "PATCH", key: alice.key, params: { id: alice.apiKey.id }, body: { name: "agent" } });
    expect(renamed.body.name).toBe("agent");
    for (const body of [{ metadata: { monthlyLimitRub: 10_000 } }, { enabled: true }]) {
      const res = await call(PATCH, "/", { method: "PATCH", key: alice.key, params: { id: alice.apiKey.id }, body });
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ success: false, error: "forbidden", message: expect.any(String) });
    }
  });

  test("DELETE removes the key; it answers 401 afterwards", async () => {
    const alice = await createActor();
    const extra = await createKey(alice.session);
    const res = await call(DELETE, "/", { method: "DELETE", session: alice.session, params: { id: extra.id } });
    expect(res.status).toBe(204);
    expect(res.text).toBe("");
    expect(await (await getDb()).select().from(apiKeys).where(eq(apiKeys.id, extra.id))).toEqual([]);
    const after = await call(GET_ME, "/me", { key: extra.key });
    expect(after.status).toBe(401);
    expect(after.body.error).toBe("unauthorized");
  });

  test("a key may delete itself", async () => {
    const alice = await createActor();
    const res = await call(DELETE, "/", { method: "DELETE", key: alice.key, params: { id: alice.apiKey.id } });
    expect(res.status).toBe(204);
    expect((await call(GET_ME, "/me", { key: alice.key })).status).toBe(401);
  });
});

describe("validation", () => {
  test.each([
    ["no name", {}, ["name"]],
    ["an empty name", { name: "   " }, ["name"]],
    ["a long name", { name: "x".repeat(65) }, ["name"]],
    ["expiresIn below a minute", { name: "a", expiresIn: 5 }, ["expiresIn"]],
    ["a fractional expiresIn", { name: "a", expiresIn: 90.5 }, ["expiresIn"]],
    ["an unknown mode", { name: "a", mode: "prod" }, ["mode"]],
  ])("POST with %s → 400 invalid_body", async (_, body, path) => {
    const alice = await createActor();
    const res = await call(POST, "/me/keys", { session: alice.session, body });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      success: false,
      error: "invalid_body",
      message: expect.any(String),
      issues: [{ path, message: expect.any(String) }],
    });
  });

  // PostgreSQL cannot store a NUL: this was a 500. (In a path, proxy.ts refuses it: e2e/api-edges.)
  test("a NUL in a key's name → 400 invalid_body; no key is created", async () => {
    const alice = await createActor();
    const named = await call(POST, "/me/keys", { session: alice.session, body: { name: "evil\u0000name" } });
    expect(named.status).toBe(400);
    expect(named.body).toMatchObject({ error: "invalid_body", issues: [{ path: ["name"] }] });
    const listed = await call(GET, "/me/keys", { session: alice.session });
    expect(listed.body.keys.map((k: { id: string }) => k.id)).toEqual([alice.apiKey.id]);
  });

  test.each([
    ["an empty patch", {}],
    ["a negative cap", { metadata: { monthlyLimitRub: -1 } }],
    ["a fractional cap", { metadata: { monthlyLimitRub: 1.5 } }],
  ])("PATCH with %s → 400 invalid_body", async (_, body) => {
    const alice = await createActor();
    const res = await call(PATCH, "/", { method: "PATCH", session: alice.session, params: { id: alice.apiKey.id }, body });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ success: false, error: "invalid_body", issues: expect.any(Array) });
  });
});

describe("auth", () => {
  test("creating a key with an API key → 403 forbidden (dashboard only)", async () => {
    const alice = await createActor();
    const res = await call(POST, "/me/keys", { key: alice.key, body: { name: "x" } });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ success: false, error: "forbidden", message: expect.any(String) });
  });

  test("another user's key is 404 on PATCH and DELETE, exactly like a missing one", async () => {
    const alice = await createActor();
    const bob = await createActor();
    for (const [handler, method, body] of [
      [PATCH, "PATCH", { name: "mine now" }],
      [DELETE, "DELETE", undefined],
    ] as const) {
      const foreign = await call(handler, "/", { method, session: bob.session, params: { id: alice.apiKey.id }, body });
      const missing = await call(handler, "/", { method, session: bob.session, params: { id: "key_doesnotexist" }, body });
      expect(foreign.status).toBe(404);
      expect(foreign.body).toEqual(notFound);
      expect(missing.body).toEqual(foreign.body);
    }
    const [row] = await (await getDb()).select().from(apiKeys).where(eq(apiKeys.id, alice.apiKey.id));
    expect(row!.name).toBe("test key");
  });

  runAuthContract("GET /me/keys", GET, "/me/keys", "key");
  runAuthContract("POST /me/keys", POST, "/me/keys", "session", () => ({ body: { name: "x" } }));
  runAuthContract("PATCH /me/keys/{id}", PATCH, "/me/keys/x", "key", async (user) => ({
    method: "PATCH",
    params: { id: (await createApiKey(user)).id },
    body: { name: "x" },
  }));
  runAuthContract("DELETE /me/keys/{id}", DELETE, "/me/keys/x", "key", async (user) => ({
    method: "DELETE",
    params: { id: (await createApiKey(user)).id },
  }));
});
