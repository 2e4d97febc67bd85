import { createHash, generateKeyPairSync, randomUUID, sign, type KeyObject } from "node:crypto";

/**
 * fal's webhook signature (notes/fal.md §4): Ed25519 over
 * `request_id \n user_id \n timestamp \n hex(sha256(raw body))`, hex-encoded, in four
 * `X-Fal-Webhook-*` headers; receivers verify it with any key of fal's JWKS. `postFalWebhook`
 * sends one signed delivery.
 */
export type FalKeyPair = ReturnType<typeof ed25519KeyPair>;

export function signFalWebhook(options: {
  privateKey: KeyObject;
  requestId: string;
  userId: string;
  timestamp: number;
  body: string | Uint8Array;
}) {
  const digest = createHash("sha256").update(options.body).digest("hex");
  const message = `${options.requestId}\n${options.userId}\n${options.timestamp}\n${digest}`;
  return {
    "x-fal-webhook-request-id": options.requestId,
    "x-fal-webhook-user-id": options.userId,
    "x-fal-webhook-timestamp": String(options.timestamp),
    "x-fal-webhook-signature": sign(null, Buffer.from(message), options.privateKey).toString("hex"),
  };
}

/** A signing key and its public JWK (`{kty: "OKP", crv: "Ed25519", x, kid}`), as fal's JWKS lists it. */
export function ed25519KeyPair(kid: string = randomUUID()) {
  const { publicKey, privateKey } = generateKeyPairSync("ed25519");
  const jwk = publicKey.export({ format: "jwk" }) as { kty: string; crv: string; x: string };
  return { kid, privateKey, publicKey, jwk: { kty: jwk.kty, crv: jwk.crv, x: jwk.x, kid } };
}

/** POSTs a signed webhook body once; `status` is null when no answer came (within 15 s). */
export async function postFalWebhook(
  url: string,
  options: { privateKey: KeyObject; requestId: string; userId: string; body: string },
): Promise<{ status: number | null; headers: Record<string, string> }> {
  const headers = {
    "content-type": "application/json",
    ...signFalWebhook({ ...options, timestamp: Math.floor(Date.now() / 1000) }),
  };
  try {
    const res = await fetch(url, { method: "POST", headers, body: options.body, signal: AbortSignal.timeout(15_000) });
    await res.body?.cancel().catch(() => {});
    return { status: res.status, headers };
  } catch {
    return { status: null, headers };
  }
}
