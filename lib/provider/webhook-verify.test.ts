import { statSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { DomainError } from "@/lib/core/errors";
import { env, resetEnv } from "@/lib/core/env";
import { ed25519KeyPair, FakeFal, signFalWebhook } from "@/test/servers/fal";
import { ModelFailedError } from "./errors";
import { FalProvider } from "./fal/provider";
import { JwksCache, resetJwksCache } from "./fal/webhook";
import { localProviderSecret } from "../../simulators/local-provider/secret";
import { standardWebhookSigner, verifyProviderWebhook } from "./webhook-verify";

let fal: FakeFal;
const now = () => Math.floor(Date.now() / 1000);

beforeAll(async () => {
  fal = await FakeFal.start();
});
afterAll(async () => {
  await fal.close();
});
beforeEach(() => {
  fal.keys = [ed25519KeyPair()];
  fal.signingKey = fal.keys[0]!;
  fal.calls = [];
});

function falWebhook(body: unknown, options: { key?: ReturnType<typeof ed25519KeyPair>; timestamp?: number; requestId?: string } = {}) {
  const raw = JSON.stringify(body);
  const requestId = options.requestId ?? (body as { request_id: string }).request_id;
  const headers = new Headers({
    "content-type": "application/json",
    ...signFalWebhook({
      privateKey: (options.key ?? fal.signingKey).privateKey,
      requestId,
      userId: "user-1",
      timestamp: options.timestamp ?? now(),
      body: raw,
    }),
  });
  return { headers, body: raw };
}

const okBody = { request_id: "req-1", gateway_request_id: "req-1", status: "OK", payload: { images: [{ url: "https://cdn/x.png" }] } };

async function rejection(promise: Promise<unknown>): Promise<DomainError> {
  try {
    await promise;
  } catch (err) {
    if (err instanceof DomainError) return err;
    throw err;
  }
  throw new Error("expected a rejection");
}

describe("fal scheme", () => {
  // fal's format is verified only when fal is the configured provider.
  beforeAll(() => {
    Object.assign(process.env, { PROVIDER: "fal", FAL_KEY: "test:key" });
    resetEnv();
  });
  afterAll(() => {
    delete process.env.PROVIDER;
    delete process.env.FAL_KEY;
    resetEnv();
  });

  test("a webhook signed by a JWKS key verifies and parses into a completed event", async () => {
    const event = await verifyProviderWebhook(falWebhook(okBody), { jwks: new JwksCache(fal.jwksUrl) });
    expect(event).toMatchObject({
      provider: "fal",
      providerRequestId: "req-1",
      gatewayRequestId: "req-1",
      outcome: { kind: "completed", output: okBody.payload },
    });
  });

  test("an ERROR webhook becomes a typed model failure with fal's detail", async () => {
    const detail = [{ loc: ["body", "prompt"], msg: "flagged", type: "content_policy_violation" }];
    const event = await verifyProviderWebhook(
      falWebhook({ request_id: "req-2", status: "ERROR", error: "Invalid status code: 422", payload: { detail } }),
      { jwks: new JwksCache(fal.jwksUrl) },
    );
    expect(event.outcome.kind).toBe("failed");
    const error = (event.outcome as { error: ModelFailedError }).error;
    expect(error).toBeInstanceOf(ModelFailedError);
    expect(error).toMatchObject({ status: 422, detail, errorType: "content_policy_violation", message: "prompt: flagged" });
  });

  test("an OK webhook without its payload asks for the result to be fetched", async () => {
    const event = await verifyProviderWebhook(
      falWebhook({ request_id: "req-3", status: "OK", payload: null, payload_error: "too large" }),
      {
        jwks: new JwksCache(fal.jwksUrl),
      },
    );
    expect(event.outcome).toEqual({ kind: "fetch_result", reason: "too large" });
  });

  test.each([
    ["a tampered body", () => ({ ...falWebhook(okBody), body: JSON.stringify({ ...okBody, payload: { images: [] } }) })],
    ["a timestamp 301 s old", () => falWebhook(okBody, { timestamp: now() - 301 })],
    ["a timestamp 301 s ahead", () => falWebhook(okBody, { timestamp: now() + 301 })],
    ["a key outside the JWKS", () => falWebhook(okBody, { key: ed25519KeyPair() })],
    ["a signature for another request id", () => falWebhook(okBody, { requestId: "someone-else" })],
    [
      "a missing header",
      () => {
        const w = falWebhook(okBody);
        w.headers.delete("x-fal-webhook-user-id");
        return w;
      },
    ],
    [
      "a malformed signature",
      () => {
        const w = falWebhook(okBody);
        w.headers.set("x-fal-webhook-signature", "zz");
        return w;
      },
    ],
    ["no signature headers at all", () => ({ headers: new Headers({ "content-type": "application/json" }), body: JSON.stringify(okBody) })],
  ])("%s is refused with 401 invalid_signature", async (_name, make) => {
    const err = await rejection(verifyProviderWebhook(make(), { jwks: new JwksCache(fal.jwksUrl) }));
    expect(err).toMatchObject({ code: "invalid_signature" });
  });

  test("timestamps within ±300 s are accepted", async () => {
    const jwks = new JwksCache(fal.jwksUrl);
    await expect(verifyProviderWebhook(falWebhook(okBody, { timestamp: now() - 299 }), { jwks })).resolves.toBeDefined();
    await expect(verifyProviderWebhook(falWebhook(okBody, { timestamp: now() + 299 }), { jwks })).resolves.toBeDefined();
  });

  test("a verified body of the wrong shape is 400 invalid_body, not trusted", async () => {
    const err = await rejection(
      verifyProviderWebhook(falWebhook({ request_id: "req-1", status: "MAYBE" }), { jwks: new JwksCache(fal.jwksUrl) }),
    );
    expect(err).toMatchObject({ code: "invalid_body" });
  });

  test("the JWKS is cached, re-read when a signature matches no cached key (rotation), at most once a minute", async () => {
    let clock = 1_000_000;
    const jwks = new JwksCache(fal.jwksUrl, { now: () => clock });
    await verifyProviderWebhook(falWebhook(okBody), { jwks });
    await verifyProviderWebhook(falWebhook(okBody), { jwks });
    expect(fal.callsTo("jwks")).toHaveLength(1);

    clock += 61_000;
    const rotated = ed25519KeyPair();
    fal.keys = [rotated];
    await verifyProviderWebhook(falWebhook(okBody, { key: rotated }), { jwks });
    expect(fal.callsTo("jwks")).toHaveLength(2);

    // Forged signatures cannot make us hammer the JWKS endpoint.
    await rejection(verifyProviderWebhook(falWebhook(okBody, { key: ed25519KeyPair() }), { jwks }));
    await rejection(verifyProviderWebhook(falWebhook(okBody, { key: ed25519KeyPair() }), { jwks }));
    expect(fal.callsTo("jwks")).toHaveLength(2);
  });

  test("cached keys expire after 24 hours", async () => {
    let clock = 0;
    const jwks = new JwksCache(fal.jwksUrl, { now: () => clock });
    await jwks.keys();
    clock += 24 * 3600 * 1000 - 1;
    await jwks.keys();
    expect(fal.callsTo("jwks")).toHaveLength(1);
    clock += 1;
    await jwks.keys();
    expect(fal.callsTo("jwks")).toHaveLength(2);
  });

  test("an unreachable JWKS with nothing cached asks the sender to retry (503), never accepts", async () => {
    const err = await rejection(verifyProviderWebhook(falWebhook(okBody), { jwks: new JwksCache(`${fal.base}/missing.json`) }));
    expect(err).toMatchObject({ code: "provider_error", httpStatus: 503, headers: { "Retry-After": "60" } });
  });

  test("without an explicit cache, keys come from FAL_JWKS_URL", async () => {
    process.env.FAL_JWKS_URL = fal.jwksUrl;
    resetEnv();
    resetJwksCache();
    try {
      await expect(verifyProviderWebhook(falWebhook(okBody))).resolves.toMatchObject({ provider: "fal" });
      expect(fal.callsTo("jwks")).toHaveLength(1);
    } finally {
      delete process.env.FAL_JWKS_URL;
      resetEnv();
      resetJwksCache();
    }
  });

  test("a real delivery from the fal server verifies end to end", async () => {
    const received: { headers: Headers; body: string }[] = [];
    const receiver: Server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c) => chunks.push(c));
      req.on("end", () => {
        received.push({ headers: new Headers(req.headers as Record<string, string>), body: Buffer.concat(chunks).toString("utf8") });
        res.end("ok");
      });
    });
    await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", r));
    try {
      const provider = new FalProvider({ key: fal.key, queueUrl: fal.queueUrl, apiUrl: fal.apiUrl });
      const webhookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/webhooks/provider`;
      const { providerRequestId } = await provider.submit({
        endpointId: "fal-ai/flux/dev",
        input: { prompt: "p" },
        webhookUrl,
        requestId: "r",
      });
      const delivery = await fal.complete(providerRequestId);
      expect(delivery?.status).toBe(200);
      const event = await verifyProviderWebhook(received[0]!, { jwks: new JwksCache(fal.jwksUrl) });
      expect(event).toMatchObject({ provider: "fal", providerRequestId, outcome: { kind: "completed" } });
    } finally {
      await new Promise<void>((r) => receiver.close(() => r()));
    }
  });
});

describe("local scheme", () => {
  const body = JSON.stringify({ request_id: "loc-1", gateway_request_id: "loc-1", status: "OK", payload: { text: "hi" } });
  const signed = (secret: string, at = new Date()) => {
    const signature = standardWebhookSigner(secret).sign("loc-1", at, body);
    return {
      headers: new Headers({
        "webhook-id": "loc-1",
        "webhook-timestamp": String(Math.floor(at.getTime() / 1000)),
        "webhook-signature": signature,
      }),
      body,
    };
  };

  test("a webhook signed with the local secret verifies as the local provider", async () => {
    const event = await verifyProviderWebhook(signed(localProviderSecret()));
    expect(event).toMatchObject({ provider: "local", providerRequestId: "loc-1", outcome: { kind: "completed", output: { text: "hi" } } });
  });

  test("plain (non-whsec) secrets work too", async () => {
    const secret = "a plain secret of some length";
    await expect(verifyProviderWebhook(signed(secret), { localSecret: secret })).resolves.toMatchObject({ provider: "local" });
  });

  test("another secret, a stale timestamp or a changed body are refused", async () => {
    const other = "whsec_" + Buffer.alloc(32, 7).toString("base64");
    expect(await rejection(verifyProviderWebhook(signed(other)))).toMatchObject({ code: "invalid_signature" });
    expect(await rejection(verifyProviderWebhook(signed(localProviderSecret(), new Date(Date.now() - 600_000))))).toMatchObject({
      code: "invalid_signature",
    });
    const tampered = { ...signed(localProviderSecret()), body: body.replace("hi", "ho") };
    expect(await rejection(verifyProviderWebhook(tampered))).toMatchObject({ code: "invalid_signature" });
  });

  test("without LOCAL_PROVIDER_SECRET a secret is generated once and kept in DATA_DIR (owner-only)", () => {
    const first = localProviderSecret();
    expect(first).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(localProviderSecret()).toBe(first);
    const file = path.resolve(env().DATA_DIR, "local-provider.secret");
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });
});
