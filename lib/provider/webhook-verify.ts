import { createHash, createPublicKey, verify, type KeyObject } from "node:crypto";
import { Webhook } from "standardwebhooks";
import { z } from "zod";
import { env } from "@/lib/core/env";
import { DomainError } from "@/lib/core/errors";
import { log } from "@/lib/core/logger";
import { providerWebhookSecret } from "./registry";
import { parseProviderWebhook, type ProviderWebhookEvent } from "./webhook-payload";

/**
 * Verification of provider webhooks (`POST /webhooks/provider`), before anything is parsed:
 *
 * - fal (only when PROVIDER=fal: otherwise no fal job exists, and a forged fal-format request
 *   must not make the service fetch fal's keys): four `X-Fal-Webhook-*` headers; the timestamp
 *   within ±300 s; an Ed25519 signature (hex) over
 *   `request_id \n user_id \n timestamp \n hex(sha256(raw body))` made by any key of fal's JWKS
 *   (FAL_JWKS_URL), cached up to 24 h and re-read (at most once a minute) when a signature matches
 *   none of the cached keys, which is how a rotated key shows up.
 * - local (the simulator, which also serves sandbox keys under PROVIDER=fal): Standard Webhooks
 *   (`webhook-id`, `webhook-timestamp`, `webhook-signature`, HMAC-SHA256) with the secret the
 *   provider registered as `local` signs with (lib/provider/registry.ts); refused when none is.
 *
 * `webhookScheme` checks what the headers alone can tell (the scheme's headers present, the
 * timestamp fresh), so an unsigned or stale request is refused before its body is read. Any
 * failure throws 401 `invalid_signature`; nothing of the body is trusted before that.
 */
export const FAL_TIMESTAMP_TOLERANCE_SECONDS = 300;
/** Standard Webhooks' tolerance (the `standardwebhooks` library refuses past it too). */
const LOCAL_TIMESTAMP_TOLERANCE_SECONDS = 300;
const DAY_MS = 24 * 60 * 60 * 1000;
/** How long a failed JWKS fetch is remembered (the Retry-After of the 503 it causes). */
const FAILURE_BACKOFF_MS = 60_000;

export type RawWebhook = { headers: Headers; body: string | Uint8Array };

export type VerifyOptions = {
  /** Seconds since the epoch (tests). */
  nowSeconds?: number;
  jwks?: JwksCache;
  localSecret?: string;
  /** Whether fal's format is verified at all; default: PROVIDER=fal. */
  acceptFal?: boolean;
};

export type WebhookScheme = "fal" | "local";

const nowOf = (options: VerifyOptions) => options.nowSeconds ?? Math.floor(Date.now() / 1000);
const fresh = (timestamp: string | undefined, now: number, toleranceSeconds: number) =>
  !!timestamp && /^\d{1,12}$/.test(timestamp) && Math.abs(now - Number(timestamp)) <= toleranceSeconds;

/**
 * The scheme a webhook is signed with, judged from its headers alone: the scheme's headers are
 * present and its timestamp is fresh, or 401 before a byte of the body is read.
 */
export function webhookScheme(headers: Headers, options: VerifyOptions = {}): WebhookScheme {
  if ((options.acceptFal ?? env().PROVIDER === "fal") && headers.has("x-fal-webhook-signature")) {
    falHeaders(headers, nowOf(options));
    return "fal";
  }
  if (headers.has("webhook-signature")) {
    if (!headers.get("webhook-id")) throw invalid("Missing webhook-id header");
    if (!fresh(headers.get("webhook-timestamp")?.trim(), nowOf(options), LOCAL_TIMESTAMP_TOLERANCE_SECONDS)) {
      throw invalid("Webhook timestamp is outside the allowed window");
    }
    return "local";
  }
  throw invalid("Missing webhook signature headers");
}

export async function verifyProviderWebhook(raw: RawWebhook, options: VerifyOptions = {}): Promise<ProviderWebhookEvent> {
  if (webhookScheme(raw.headers, options) === "fal") {
    const requestId = await verifyFalSignature(raw, options);
    const event = parseProviderWebhook("fal", raw.body);
    // The signed header names the request; a body about another request is not what was signed for.
    if (event.providerRequestId !== requestId && event.gatewayRequestId !== requestId) {
      throw invalid("The signed request id does not match the body");
    }
    return event;
  }
  const secret = options.localSecret ?? providerWebhookSecret("local");
  if (!secret) throw invalid("No provider here signs Standard Webhooks");
  verifyLocalSignature(raw, secret);
  return parseProviderWebhook("local", raw.body);
}

const invalid = (message: string) => new DomainError("invalid_signature", message);

/** fal's four headers, present, with a fresh timestamp and a well-formed signature. */
function falHeaders(headers: Headers, now: number) {
  const h = (name: string) => headers.get(`x-fal-webhook-${name}`)?.trim();
  const requestId = h("request-id");
  const userId = h("user-id");
  const timestamp = h("timestamp");
  const signature = h("signature");
  if (!requestId || !userId || !timestamp || !signature) throw invalid("Missing X-Fal-Webhook-* headers");
  if (!fresh(timestamp, now, FAL_TIMESTAMP_TOLERANCE_SECONDS)) throw invalid("Webhook timestamp is outside the allowed window");
  if (!/^[0-9a-f]{128}$/i.test(signature)) throw invalid("Malformed webhook signature");
  return { requestId, userId, timestamp, signature };
}

/** Returns the signed request id. */
export async function verifyFalSignature(raw: RawWebhook, options: VerifyOptions = {}): Promise<string> {
  const { requestId, userId, timestamp, signature } = falHeaders(raw.headers, nowOf(options));
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

/**
 * fal's webhook public keys, fetched from a JWKS URL and cached. A failed fetch is remembered
 * for a minute too: until then, requests use the keys already cached or are answered 503 at
 * once, so a stream of forged webhooks while fal's endpoint is down cannot turn into a stream
 * of fetches.
 */
export class JwksCache {
  private cached: { keys: KeyObject[]; fetchedAt: number } | null = null;
  private inflight: Promise<KeyObject[]> | null = null;
  private lastAttempt = -Infinity;
  private failedAt = -Infinity;

  constructor(
    readonly url: string,
    private readonly options: {
      ttlMs?: number;
      minRefreshMs?: number;
      failureBackoffMs?: number;
      timeoutMs?: number;
      fetch?: typeof fetch;
      now?: () => number;
    } = {},
  ) {}

  private now() {
    return (this.options.now ?? Date.now)();
  }

  private failedRecently() {
    return this.now() - this.failedAt < (this.options.failureBackoffMs ?? FAILURE_BACKOFF_MS);
  }

  /** The cached keys, fetched when missing or older than the TTL (24 h), unless a fetch just failed. */
  async keys(): Promise<KeyObject[]> {
    if (this.cached && this.now() - this.cached.fetchedAt < (this.options.ttlMs ?? DAY_MS)) return this.cached.keys;
    if (this.failedRecently()) return this.fallback();
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

  /** Keys we already had stay usable; with none, the sender is asked to retry later. */
  private fallback(): KeyObject[] {
    if (this.cached) return this.cached.keys;
    throw new DomainError("provider_error", "The provider's webhook keys could not be read; retry later", {}, { "Retry-After": "60" }, 503);
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
      this.failedAt = -Infinity;
      return parsed;
    } catch (err) {
      log.warn("could not read the provider's webhook keys", { url: this.url, error: String(err) });
      this.failedAt = this.now();
      return this.fallback();
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
