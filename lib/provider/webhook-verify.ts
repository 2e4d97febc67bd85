import { createHash, createPublicKey, verify, type KeyObject } from "node:crypto";
import { Webhook } from "standardwebhooks";
import { z } from "zod";
import { env } from "@/lib/env";
import { ApiError } from "@/lib/http/errors";
import { log } from "@/lib/logger";
import { localProviderSecret } from "./local/secret";
import { parseProviderWebhook, type ProviderWebhookEvent } from "./webhook-payload";

/**
 * Verification of provider webhooks (`POST /webhooks/provider`), before anything is parsed:
 *
 * - fal: four `X-Fal-Webhook-*` headers; the timestamp within ±300 s; an Ed25519 signature (hex)
 *   over `request_id \n user_id \n timestamp \n hex(sha256(raw body))` made by any key of fal's
 *   JWKS (FAL_JWKS_URL), cached up to 24 h and re-read (at most once a minute) when a signature
 *   matches none of the cached keys, which is how a rotated key shows up.
 * - local (the simulator): Standard Webhooks (`webhook-id`, `webhook-timestamp`,
 *   `webhook-signature`, HMAC-SHA256) with the local provider's secret.
 *
 * Any failure throws 401 `invalid_signature`; nothing of the body is trusted before that.
 */
export const FAL_TIMESTAMP_TOLERANCE_SECONDS = 300;
const DAY_MS = 24 * 60 * 60 * 1000;

export type RawWebhook = { headers: Headers; body: string | Uint8Array };

export type VerifyOptions = {
  /** Seconds since the epoch (tests). */
  nowSeconds?: number;
  jwks?: JwksCache;
  localSecret?: string;
};

export async function verifyProviderWebhook(raw: RawWebhook, options: VerifyOptions = {}): Promise<ProviderWebhookEvent> {
  if (raw.headers.has("x-fal-webhook-signature")) {
    const requestId = await verifyFalSignature(raw, options);
    const event = parseProviderWebhook("fal", raw.body);
    // The signed header names the request; a body about another request is not what was signed for.
    if (event.providerRequestId !== requestId && event.gatewayRequestId !== requestId) {
      throw invalid("The signed request id does not match the body");
    }
    return event;
  }
  if (raw.headers.has("webhook-signature")) {
    verifyLocalSignature(raw, options.localSecret ?? localProviderSecret());
    return parseProviderWebhook("local", raw.body);
  }
  throw invalid("Missing webhook signature headers");
}

const invalid = (message: string) => new ApiError("invalid_signature", message);

/** Returns the signed request id. */
export async function verifyFalSignature(raw: RawWebhook, options: VerifyOptions = {}): Promise<string> {
  const h = (name: string) => raw.headers.get(`x-fal-webhook-${name}`)?.trim();
  const requestId = h("request-id");
  const userId = h("user-id");
  const timestamp = h("timestamp");
  const signature = h("signature");
  if (!requestId || !userId || !timestamp || !signature) throw invalid("Missing X-Fal-Webhook-* headers");
  const now = options.nowSeconds ?? Math.floor(Date.now() / 1000);
  if (!/^\d{1,12}$/.test(timestamp) || Math.abs(now - Number(timestamp)) > FAL_TIMESTAMP_TOLERANCE_SECONDS) {
    throw invalid("Webhook timestamp is outside the allowed window");
  }
  if (!/^[0-9a-f]{128}$/i.test(signature)) throw invalid("Malformed webhook signature");
  const digest = createHash("sha256").update(raw.body).digest("hex");
  const message = Buffer.from(`${requestId}\n${userId}\n${timestamp}\n${digest}`, "utf8");
  const sig = Buffer.from(signature, "hex");
  const jwks = options.jwks ?? defaultJwks();
  const matches = (keys: KeyObject[]) => keys.some((key) => verify(null, message, key, sig));
  if (matches(await jwks.keys())) return requestId;
  const refreshed = await jwks.refresh();
  if (refreshed && matches(refreshed)) return requestId;
  throw invalid("Webhook signature does not match");
}

export function verifyLocalSignature(raw: RawWebhook, secret: string): void {
  try {
    const headers = {
      "webhook-id": raw.headers.get("webhook-id") ?? "",
      "webhook-timestamp": raw.headers.get("webhook-timestamp") ?? "",
      "webhook-signature": raw.headers.get("webhook-signature") ?? "",
    };
    const body = typeof raw.body === "string" ? raw.body : Buffer.from(raw.body).toString("utf8");
    localWebhookSigner(secret).verify(body, headers, { jsonParse: false });
  } catch (err) {
    // By name: the library is bundled into several server chunks, each with its own class.
    if (err instanceof Error && err.name === "WebhookVerificationError") throw invalid(`Webhook signature invalid: ${err.message}`);
    throw err;
  }
}

/** `whsec_…` secrets are base64 keys (Standard Webhooks); any other string is used as raw bytes. */
export function localWebhookSigner(secret: string): Webhook {
  return secret.startsWith("whsec_") ? new Webhook(secret) : new Webhook(new TextEncoder().encode(secret), { format: "raw" });
}

const jwksSchema = z.object({
  keys: z.array(z.looseObject({ kty: z.string(), crv: z.string().optional(), x: z.string().optional(), kid: z.string().optional() })),
});

/** fal's webhook public keys, fetched from a JWKS URL and cached. */
export class JwksCache {
  private cached: { keys: KeyObject[]; fetchedAt: number } | null = null;
  private inflight: Promise<KeyObject[]> | null = null;
  private lastAttempt = -Infinity;

  constructor(
    readonly url: string,
    private readonly options: { ttlMs?: number; minRefreshMs?: number; timeoutMs?: number; fetch?: typeof fetch; now?: () => number } = {},
  ) {}

  private now() {
    return (this.options.now ?? Date.now)();
  }

  /** The cached keys, fetched when missing or older than the TTL (24 h). */
  async keys(): Promise<KeyObject[]> {
    if (this.cached && this.now() - this.cached.fetchedAt < (this.options.ttlMs ?? DAY_MS)) return this.cached.keys;
    return this.load();
  }

  /** Re-reads the JWKS unless it was read within the last minute; null when it was. */
  async refresh(): Promise<KeyObject[] | null> {
    if (this.now() - this.lastAttempt < (this.options.minRefreshMs ?? 60_000)) return null;
    return this.load();
  }

  private load(): Promise<KeyObject[]> {
    this.inflight ??= this.fetchKeys().finally(() => {
      this.inflight = null;
    });
    return this.inflight;
  }

  private async fetchKeys(): Promise<KeyObject[]> {
    this.lastAttempt = this.now();
    try {
      const res = await (this.options.fetch ?? fetch)(this.url, {
        headers: { accept: "application/json" },
        signal: AbortSignal.timeout(this.options.timeoutMs ?? 10_000),
      });
      if (!res.ok) throw new Error(`JWKS answered ${res.status}`);
      const { keys } = jwksSchema.parse(await res.json());
      const parsed = keys
        .filter((k) => k.kty === "OKP" && k.crv === "Ed25519" && k.x)
        .map((k) => createPublicKey({ key: { kty: "OKP", crv: "Ed25519", x: k.x! }, format: "jwk" }));
      this.cached = { keys: parsed, fetchedAt: this.now() };
      return parsed;
    } catch (err) {
      log.warn("could not read the provider's webhook keys", { url: this.url, error: String(err) });
      // Keys we already had stay usable; with none, the sender is asked to retry later.
      if (this.cached) return this.cached.keys;
      throw new ApiError("provider_error", "The provider's webhook keys could not be read; retry later", {}, { "Retry-After": "60" }, 503);
    }
  }
}

const globalJwks = globalThis as unknown as { __gwFalJwks?: JwksCache };

function defaultJwks(): JwksCache {
  const url = env().FAL_JWKS_URL;
  if (globalJwks.__gwFalJwks?.url !== url) globalJwks.__gwFalJwks = new JwksCache(url);
  return globalJwks.__gwFalJwks;
}

/** Tests: forget the cached JWKS. */
export function resetJwksCache(): void {
  globalJwks.__gwFalJwks = undefined;
}
