import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { POST } from "@/app/(gateway)/webhooks/provider/route";
import { resetJwksCache } from "@/lib/provider/fal/webhook";
import { withEnv } from "@/test/env";
import { call } from "@/test/http";
import { ed25519KeyPair, signFalWebhook } from "@/test/servers/fal";

/**
 * Issue 19 item 6: forged webhooks in fal's format. Verifying one means fetching fal's public keys
 * (JWKS): with PROVIDER=local no fal job exists, so fal's format is not verified at all (401, no
 * fetch; before, the empty cache sent every forged request to the JWKS URL, and answered 503 while
 * it was unreachable). With PROVIDER=fal, a failed fetch is remembered for a minute: forged
 * requests meanwhile are answered from that, not with a fetch each.
 */
let jwks: Server;
let jwksUrl: string;
let hits = 0;
let answer: "keys" | "fail" = "keys";
const genuine = ed25519KeyPair();

beforeAll(async () => {
  jwks = createServer((_req, res) => {
    hits++;
    if (answer === "fail") return void res.writeHead(500).end();
    res.setHeader("content-type", "application/json");
    res.end(JSON.stringify({ keys: [genuine.jwk] }));
  });
  await new Promise<void>((resolve) => jwks.listen(0, "127.0.0.1", resolve));
  jwksUrl = `http://127.0.0.1:${(jwks.address() as AddressInfo).port}/.well-known/jwks.json`;
});
afterAll(() => new Promise<void>((resolve) => jwks.close(() => resolve())));
beforeEach(() => {
  hits = 0;
  answer = "keys";
  resetJwksCache();
});

/** A webhook in fal's format, signed by a key that is not fal's. */
function forged() {
  const body = JSON.stringify({ request_id: "req-forged", gateway_request_id: "req-forged", status: "OK", payload: { images: [] } });
  const headers = signFalWebhook({
    privateKey: ed25519KeyPair().privateKey,
    requestId: "req-forged",
    userId: "u",
    timestamp: Math.floor(Date.now() / 1000),
    body,
  });
  return { body, headers: { "content-type": "application/json", ...headers } };
}

const deliver = () => call(POST, "/webhooks/provider", forged());

describe("auth", () => {
  test("with PROVIDER=local a fal-format webhook is 401 invalid_signature, and fal's keys are never fetched", async () => {
    const answers = await withEnv({ FAL_JWKS_URL: jwksUrl }, async () => [await deliver(), await deliver(), await deliver()]);
    for (const res of answers) {
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ success: false, error: "invalid_signature", message: "Missing webhook signature headers" });
    }
    expect(hits).toBe(0);
  });

  test("with PROVIDER=local an unreachable JWKS URL changes nothing: 401, not 503", async () => {
    const res = await withEnv({ FAL_JWKS_URL: "http://127.0.0.1:9/jwks.json" }, deliver);
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ error: "invalid_signature" });
  });

  test("with PROVIDER=fal a forged signature is 401 after one fetch of the keys, which stay cached", async () => {
    const answers = await withEnv({ PROVIDER: "fal", FAL_KEY: "k:s", FAL_JWKS_URL: jwksUrl }, async () => [
      await deliver(),
      await deliver(),
      await deliver(),
    ]);
    expect(answers.map((a) => a.status)).toEqual([401, 401, 401]);
    expect(answers[0]!.body).toMatchObject({ error: "invalid_signature", message: "Webhook signature does not match" });
    // A signature matching no cached key may re-read them, but not within a minute of the last read.
    expect(hits).toBe(1);
  });

  test("with PROVIDER=fal a failed key fetch is remembered: forged requests within the minute get 503 without fetching again", async () => {
    answer = "fail";
    const answers = await withEnv({ PROVIDER: "fal", FAL_KEY: "k:s", FAL_JWKS_URL: jwksUrl }, async () => {
      const all = [];
      for (let i = 0; i < 5; i++) all.push(await deliver());
      return all;
    });
    expect(answers.map((a) => a.status)).toEqual([503, 503, 503, 503, 503]);
    expect(answers[4]!.headers.get("retry-after")).toBe("60");
    expect(answers[4]!.body).toMatchObject({ error: "provider_error" });
    expect(hits).toBe(1);
  });
});
