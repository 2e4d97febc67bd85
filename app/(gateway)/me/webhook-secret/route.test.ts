import { eq } from "drizzle-orm";
import { Webhook } from "standardwebhooks";
import { describe, expect, test } from "vitest";
import { getDb } from "@/db/client";
import { webhookSecrets } from "@/db/schema";
import { webhookSecretSchema } from "@/lib/http/contracts/me";
import { webhookSecretOf } from "@/lib/account/webhook-secret";
import { runAuthContract } from "@/test/auth-contract";
import { createActor } from "@/test/factories";
import { call } from "@/test/http";
import { POST as ROTATE } from "./rotate/route";
import { GET } from "./route";

describe("success", () => {
  test("the secret is a Standard Webhooks secret, stable across reads, and signs verifiable payloads", async () => {
    const alice = await createActor();
    const first = await call(GET, "/me/webhook-secret", { key: alice.key });
    expect(first.status).toBe(200);
    expect(first.headers.get("cache-control")).toBe("no-store, no-transform");
    expect(webhookSecretSchema.parse(first.body)).toEqual(first.body);
    expect(first.body.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(first.body.secret.slice(6), "base64")).toHaveLength(32);
    expect((await call(GET, "/me/webhook-secret", { session: alice.session })).body).toEqual(first.body);

    const wh = new Webhook(first.body.secret);
    const payload = JSON.stringify({ request_id: "r", status: "completed" });
    const headers = { "webhook-id": "msg_1", "webhook-timestamp": String(Math.floor(Date.now() / 1000)) };
    const signature = wh.sign("msg_1", new Date(), payload);
    expect(wh.verify(payload, { ...headers, "webhook-signature": signature })).toEqual(JSON.parse(payload));
  });

  test("it is stored encrypted, bound to its owner", async () => {
    const alice = await createActor();
    const bob = await createActor();
    const { secret } = (await call(GET, "/me/webhook-secret", { key: alice.key })).body;
    const db = await getDb();
    const [row] = await db.select().from(webhookSecrets).where(eq(webhookSecrets.userId, alice.user.id));
    expect(row!.secret).toMatch(/^v1\./);
    expect(row!.secret).not.toContain(secret.slice(6, 20));
    // A sealed value copied onto another user's row does not open there: bob gets a fresh secret.
    await webhookSecretOf(db, bob.user.id);
    await db.update(webhookSecrets).set({ secret: row!.secret }).where(eq(webhookSecrets.userId, bob.user.id));
    const bobs = await webhookSecretOf(db, bob.user.id);
    expect(bobs).not.toBe(secret);
  });

  test("concurrent first reads agree on one secret", async () => {
    const alice = await createActor();
    const db = await getDb();
    const secrets = await Promise.all(Array.from({ length: 8 }, () => webhookSecretOf(db, alice.user.id)));
    expect(new Set(secrets).size).toBe(1);
  });

  test("rotate replaces the secret (session only)", async () => {
    const alice = await createActor();
    const before = (await call(GET, "/me/webhook-secret", { key: alice.key })).body.secret;
    const rotated = await call(ROTATE, "/me/webhook-secret/rotate", { method: "POST", session: alice.session });
    expect(rotated.status).toBe(200);
    expect(rotated.body.secret).toMatch(/^whsec_/);
    expect(rotated.body.secret).not.toBe(before);
    expect((await call(GET, "/me/webhook-secret", { key: alice.key })).body.secret).toBe(rotated.body.secret);
    const [row] = await (await getDb()).select().from(webhookSecrets).where(eq(webhookSecrets.userId, alice.user.id));
    expect(row!.rotatedAt).toBeInstanceOf(Date);
  });
});

describe("auth", () => {
  test("each user has their own secret", async () => {
    const alice = await createActor();
    const bob = await createActor();
    const a = (await call(GET, "/me/webhook-secret", { key: alice.key })).body.secret;
    const b = (await call(GET, "/me/webhook-secret", { key: bob.key })).body.secret;
    expect(a).not.toBe(b);
  });

  runAuthContract("GET /me/webhook-secret", GET, "/me/webhook-secret", "key");
  runAuthContract("POST /me/webhook-secret/rotate", ROTATE, "/me/webhook-secret/rotate", "session", () => ({ method: "POST" }));
});
