import { Webhook } from "standardwebhooks";
import { env } from "@/lib/core/env";
import { DomainError, isDomainError } from "@/lib/core/errors";
import { checkFalHeaders, isFalWebhook, verifyFalWebhook, type JwksCache } from "./fal/webhook";
import { standardWebhookProviders } from "./registry";
import type { ProviderWebhookEvent } from "./types";

/**
 * Verification of provider webhooks (`POST /webhooks/provider`), before anything is parsed. Two
 * schemes, told apart by their headers:
 *
 * - fal's (only when PROVIDER=fal: otherwise no fal job exists, and a forged fal-format request
 *   must not make the service fetch fal's keys): Ed25519 with fal's JWKS (./fal/webhook.ts).
 * - Standard Webhooks (`webhook-id`, `webhook-timestamp`, `webhook-signature`, HMAC-SHA256), sent
 *   by Replicate and by the local simulator: the signature is checked with the secret of each
 *   provider registered as signing them (lib/provider/registry.ts: the simulator's; Replicate's
 *   when it is configured), and the one whose secret matches parses the body in its own format.
 *   Refused when none does (or none is registered).
 *
 * `webhookScheme` checks what the headers alone can tell (the scheme's headers present, the
 * timestamp fresh), so an unsigned or stale request is refused before its body is read. Any
 * failure throws 401 `invalid_signature`; nothing of the body is trusted before that.
 */
/** Standard Webhooks' tolerance (the `standardwebhooks` library refuses past it too). */
const STANDARD_TIMESTAMP_TOLERANCE_SECONDS = 300;

export type RawWebhook = { headers: Headers; body: string | Uint8Array };

export type VerifyOptions = {
  /** Seconds since the epoch (tests). */
  nowSeconds?: number;
  jwks?: JwksCache;
  /** The simulator's secret, instead of its registration's (tests). */
  localSecret?: string;
  /** Whether fal's format is verified at all; default: PROVIDER=fal. */
  acceptFal?: boolean;
};

export type WebhookScheme = "fal" | "standard";

const nowOf = (options: VerifyOptions) => options.nowSeconds ?? Math.floor(Date.now() / 1000);
const fresh = (timestamp: string | undefined, now: number, toleranceSeconds: number) =>
  !!timestamp && /^\d{1,12}$/.test(timestamp) && Math.abs(now - Number(timestamp)) <= toleranceSeconds;

/**
 * The scheme a webhook is signed with, judged from its headers alone: the scheme's headers are
 * present and its timestamp is fresh, or 401 before a byte of the body is read.
 */
export function webhookScheme(headers: Headers, options: VerifyOptions = {}): WebhookScheme {
  // fal's webhooks while fal can run jobs here (FAL_KEY: PROVIDER=fal, or a model's route to it).
  if ((options.acceptFal ?? Boolean(env().FAL_KEY)) && isFalWebhook(headers)) {
    checkFalHeaders(headers, { nowSeconds: nowOf(options) });
    return "fal";
  }
  if (headers.has("webhook-signature")) {
    if (!headers.get("webhook-id")) throw invalid("Missing webhook-id header");
    if (!fresh(headers.get("webhook-timestamp")?.trim(), nowOf(options), STANDARD_TIMESTAMP_TOLERANCE_SECONDS)) {
      throw invalid("Webhook timestamp is outside the allowed window");
    }
    return "standard";
  }
  throw invalid("Missing webhook signature headers");
}

export async function verifyProviderWebhook(raw: RawWebhook, options: VerifyOptions = {}): Promise<ProviderWebhookEvent> {
  if (webhookScheme(raw.headers, options) === "fal") return verifyFalWebhook(raw, { nowSeconds: options.nowSeconds, jwks: options.jwks });
  const body = typeof raw.body === "string" ? raw.body : Buffer.from(raw.body).toString("utf8");
  let signers = 0;
  for (const { name, secret, parse } of standardWebhookProviders()) {
    const key = name === "local" && options.localSecret ? options.localSecret : await secret();
    if (!key) continue;
    signers++;
    if (signedWith(raw.headers, body, key)) return await parse(body);
  }
  throw invalid(signers ? "Webhook signature invalid: no provider's secret matches" : "No provider here signs Standard Webhooks");
}

const invalid = (message: string) => new DomainError("invalid_signature", message);

/** Whether a Standard Webhook's signature is made with `secret` (headers already checked fresh). */
function signedWith(headers: Headers, body: string, secret: string): boolean {
  try {
    verifyStandardSignature({ headers, body }, secret);
    return true;
  } catch (err) {
    if (isDomainError(err)) return false;
    throw err;
  }
}

/** Verifies a Standard Webhook signed with `secret`; 401 `invalid_signature` when it is not. */
export function verifyStandardSignature(raw: RawWebhook, secret: string): void {
  try {
    const headers = {
      "webhook-id": raw.headers.get("webhook-id") ?? "",
      "webhook-timestamp": raw.headers.get("webhook-timestamp") ?? "",
      "webhook-signature": raw.headers.get("webhook-signature") ?? "",
    };
    const body = typeof raw.body === "string" ? raw.body : Buffer.from(raw.body).toString("utf8");
    standardWebhookSigner(secret).verify(body, headers, { jsonParse: false });
  } catch (err) {
    // By name: the library is bundled into several server chunks, each with its own class.
    if (err instanceof Error && err.name === "WebhookVerificationError") throw invalid(`Webhook signature invalid: ${err.message}`);
    throw err;
  }
}

/** `whsec_…` secrets are base64 keys (Standard Webhooks, Replicate's); any other string is used as raw bytes. */
export function standardWebhookSigner(secret: string): Webhook {
  return secret.startsWith("whsec_") ? new Webhook(secret) : new Webhook(new TextEncoder().encode(secret), { format: "raw" });
}
