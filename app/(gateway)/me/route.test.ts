import { eq } from "drizzle-orm";
import { describe, expect, test } from "vitest";
import { getDb } from "@/db/client";
import { users } from "@/db/schema";
import { meResponse, updateMeResponse } from "@/lib/http/contracts/me";
import { runAuthContract } from "@/test/auth-contract";
import { createActor } from "@/test/factories";
import { call } from "@/test/http";
import { GET, PATCH } from "./route";

describe("success", () => {
  test("GET /me with a key names the user and the key", async () => {
    const alice = await createActor({ name: "Alice" });
    const res = await call(GET, "/me", { key: alice.key });
    expect(res.status).toBe(200);
    expect(meResponse.parse(res.body)).toEqual(res.body);
    expect(res.body).toEqual({
      user: {
        id: alice.user.id,
        email: alice.user.email,
        name: "Alice",
        image: null,
        role: "user",
        createdAt: alice.user.createdAt.toISOString(),
        lowBalanceEmailOptOut: false,
      },
      auth: { source: "api_key", apiKeyId: alice.apiKey.id },
    });
  });

  test("GET /me with a session says so", async () => {
    const alice = await createActor({ role: "admin" });
    const res = await call(GET, "/me", { session: alice.session });
    expect(res.body.auth).toEqual({ source: "session", apiKeyId: null });
    expect(res.body.user.role).toBe("admin");
  });

  test("PATCH /me updates name, image and the low-balance opt-out, and leaves the rest", async () => {
    const alice = await createActor({ name: "Alice" });
    const res = await call(PATCH, "/me", {
      method: "PATCH",
      key: alice.key,
      body: { name: "  Alice B  ", image: "https://cdn.example.com/a.png", lowBalanceEmailOptOut: true },
    });
    expect(res.status).toBe(200);
    expect(updateMeResponse.parse(res.body)).toEqual(res.body);
    expect(res.body.user).toMatchObject({
      name: "Alice B",
      image: "https://cdn.example.com/a.png",
      lowBalanceEmailOptOut: true,
      role: "user",
    });
    const partial = await call(PATCH, "/me", { method: "PATCH", key: alice.key, body: { image: null } });
    expect(partial.body.user).toMatchObject({ name: "Alice B", image: null, lowBalanceEmailOptOut: true });
    const [row] = await (await getDb()).select().from(users).where(eq(users.id, alice.user.id));
    expect(row).toMatchObject({ name: "Alice B", image: null, lowBalanceEmailOptOut: true, email: alice.user.email });
  });
});

describe("validation", () => {
  test.each([
    ["an empty body", {}, []],
    ["a non-http image", { image: "javascript:alert(1)" }, ["image"]],
    ["a non-boolean opt-out", { lowBalanceEmailOptOut: "yes" }, ["lowBalanceEmailOptOut"]],
    ["an empty name", { name: "" }, ["name"]],
  ])("PATCH with %s → 400 invalid_body", async (_, body, path) => {
    const alice = await createActor();
    const res = await call(PATCH, "/me", { method: "PATCH", key: alice.key, body });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      success: false,
      error: "invalid_body",
      message: expect.any(String),
      issues: [{ path, message: expect.any(String) }],
    });
  });

  test("role and email cannot be changed through PATCH /me", async () => {
    const alice = await createActor();
    const res = await call(PATCH, "/me", {
      method: "PATCH",
      key: alice.key,
      body: { name: "x", role: "admin", email: "root@example.com" },
    });
    expect(res.body.user).toMatchObject({ role: "user", email: alice.user.email });
  });
});

describe("auth", () => {
  test("a cookie-authenticated write from another origin → 403; the same origin and non-browsers pass", async () => {
    const alice = await createActor();
    const write = (headers: Record<string, string>) =>
      call(PATCH, "/me", { method: "PATCH", session: alice.session, body: { name: "x" }, headers });
    const cross = await write({ origin: "https://evil.example", "sec-fetch-site": "cross-site" });
    expect(cross.status).toBe(403);
    expect(cross.body).toEqual({ success: false, error: "forbidden", message: expect.any(String) });
    expect((await write({ origin: "https://sub.localhost" })).status).toBe(403);
    expect((await write({ "sec-fetch-site": "same-origin", origin: "http://localhost:3000" })).status).toBe(200);
    expect((await write({})).status).toBe(200);
    // Keys carry no ambient authority, so the origin does not matter for them.
    const viaKey = await call(PATCH, "/me", {
      method: "PATCH",
      key: alice.key,
      body: { name: "y" },
      headers: { origin: "https://evil.example" },
    });
    expect(viaKey.status).toBe(200);
  });

  runAuthContract("GET /me", GET, "/me", "key");
  runAuthContract("PATCH /me", PATCH, "/me", "key", () => ({ method: "PATCH", body: { name: "x" } }));
});
