import { createHmac, timingSafeEqual } from "node:crypto";
import { authSecret } from "@/lib/auth/secret";
import { env } from "@/lib/core/env";

/**
 * The shared secret the local provider puts on its notifications (`Authorization: Bearer …`).
 * LOCAL_PAYMENT_SECRET when set; otherwise derived from the app's auth secret, so every instance
 * sharing AUTH_SECRET agrees and nothing has to be configured for the embedded setup.
 */
export function localPaymentSecret(): string {
  return env().LOCAL_PAYMENT_SECRET ?? createHmac("sha256", authSecret()).update("local-payment-notifications").digest("base64url");
}

export function isLocalPaymentSecret(candidate: string): boolean {
  const a = Buffer.from(candidate);
  const b = Buffer.from(localPaymentSecret());
  return a.length === b.length && timingSafeEqual(a, b);
}
