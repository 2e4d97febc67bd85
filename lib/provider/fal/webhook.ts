import { createHash, createPublicKey, verify, type KeyObject } from "node:crypto";
import { z } from "zod";
import { env } from "@/lib/core/env";
import { DomainError } from "@/lib/core/errors";
import { log } from "@/lib/core/logger";
import { parseFalWebhook } from "./webhook-payload";
import type { ProviderWebhookEvent } from "../types";

/**
 * fal's webhooks (notes/fal.md §4): four `X-Fal-Webhook-*` headers; the timestamp within ±300 s;
 * an Ed25519 signature (hex) over `request_id \n user_id \n timestamp \n hex(sha256(raw body))`
 * made by any key of fal's JWKS (FAL_JWKS_URL), cached up to 24 h and re-read (at most once a
 * minute) when a signature matches none of the cached keys, which is how a rotated key shows up.
 * Any failure throws 401 `invalid_signature`.
 */
export const FAL_TIMESTAMP_TOLERANCE_SECONDS = 300;
const DAY_MS = 24 * 60 * 60 * 1000;
/** How long a failed JWKS fetch is remembered (the Retry-After of the 503 it causes). */
const FAILURE_BACKOFF_MS = 60_000;

export type FalVerifyOptions = { nowSeconds?: number; jwks?: JwksCache };
type RawWebhook = { headers: Headers; body: string | Uint8Array };

const invalid = (message: string) => new DomainError("invalid_signature", message);
const fresh = (timestamp: string | undefined, now: number, toleranceSeconds: number) =>
  !!timestamp && /^\d{1,12}$/.test(timestamp) && Math.abs(now - Number(timestamp)) <= toleranceSeconds;
const nowOf = (options: FalVerifyOptions) => options.nowSeconds ?? Math.floor(Date.now() / 1000);

/** Whether the headers are fal's (its signature header present). */
export const isFalWebhook = (headers: Headers) => headers.has("x-fal-webhook-signature");

/** Checks fal's headers alone (present, fresh, well-formed): 401 before the body is read. */
export function checkFalHeaders(headers: Headers, options: FalVerifyOptions = {}): void {
  falHeaders(headers, nowOf(options));
}

/** A fal webhook verified and parsed into the engine's event. */
export async function verifyFalWebhook(raw: RawWebhook, options: FalVerifyOptions = {}): Promise<ProviderWebhookEvent> {
  const requestId = await verifyFalSignature(raw, options);
  const event = parseFalWebhook("fal", raw.body);
  // The signed header names the request; a body about another request is not what was signed for.
  if (event.providerRequestId !== requestId && event.gatewayRequestId !== requestId) {
    throw invalid("The signed request id does not match the body");
  }
  return event;
}

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
export async function verifyFalSignature(raw: RawWebhook, options: FalVerifyOptions = {}): Promise<string> {
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
