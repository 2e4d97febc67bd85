import { eq, sql } from "drizzle-orm";
import { Webhook } from "standardwebhooks";
import type { Db } from "@/db/client";
import { webhookDeliveries } from "@/db/schema";
import { inngest } from "@/lib/jobs/client";
import { generationCallbackRequested } from "@/lib/jobs/events";
import { falWebhookBody } from "@/lib/generation/fal-callback-body";
import { DomainError } from "@/lib/core/errors";
import { webhookSecretOf } from "@/lib/account/webhook-secret";
import { checkOutboundUrl, isOutboundError, safeFetch } from "@/lib/net";
import { gatewayResult, skillResult } from "./present";
import type { GenerationRow } from "./types";

/**
 * Completion callbacks (`webhook` on /queue, `webhook_url` on /api/v1/generate, `fal_webhook` on
 * fal's protocol, in fal's body: lib/generation/fal-callback-body.ts): a POST of
 * `{request_id, model, status, payload | error, created_at}` signed per Standard Webhooks
 * (`webhook-id` = the delivery id, so receivers dedupe on it) with the user's webhook secret.
 * Delivered by the `deliver-callback` function with retries and backoff: at least once.
 */
export function callbackPayload(row: GenerationRow): Record<string, unknown> {
  // A job submitted with fal's `?fal_webhook=` is called back in fal's body (same signing, same delivery).
  if (row.surface === "fal") return falWebhookBody(row);
  const base = { request_id: row.id, model: row.modelId, status: row.status, created_at: row.createdAt.toISOString() };
  if (row.status === "completed") return { ...base, payload: row.surface === "skill" ? skillResult(row) : gatewayResult(row) };
  return { ...base, error: { code: row.errorCode ?? row.status, message: row.errorMessage ?? row.status } };
}

/** Refuses a callback URL the service would never deliver to (400 at submit, not a silent loss later). */
export async function checkCallbackUrl(url: string | null | undefined, field: string[]): Promise<string | null> {
  if (!url) return null;
  try {
    return (await checkOutboundUrl(url)).toString();
  } catch (err) {
    if (!isOutboundError(err)) throw err;
    throw new DomainError(field[0] === "webhook" ? "invalid_query" : "invalid_body", `${field.join(".")}: ${err.message}`, {
      issues: [{ path: field, message: err.message }],
    });
  }
}

export async function requestCallbackDelivery(deliveryId: string): Promise<void> {
  await inngest.send({ id: `callback:${deliveryId}`, name: generationCallbackRequested.name, data: { deliveryId } });
}

const TIMEOUT_MS = 10_000;

export type DeliveryAttempt = { delivered: boolean; status: number | null; error: string | null };

/** One delivery attempt. Throws nothing for a receiver's failure: the caller decides on retrying. */
export async function attemptCallbackDelivery(db: Db, deliveryId: string): Promise<DeliveryAttempt & { skipped?: boolean }> {
  const [delivery] = await db.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, deliveryId));
  if (!delivery || delivery.status === "delivered") return { delivered: true, status: null, error: null, skipped: true };
  const secret = await webhookSecretOf(db, delivery.userId);
  const body = JSON.stringify(delivery.payload);
  const at = new Date();
  const signature = new Webhook(secret).sign(delivery.id, at, body);
  const timestamp = String(Math.floor(at.getTime() / 1000));
  let attempt: DeliveryAttempt;
  try {
    const res = await safeFetch(delivery.url, {
      method: "POST",
      body,
      headers: {
        "content-type": "application/json",
        "user-agent": "generation-gateway-callbacks/1",
        "webhook-id": delivery.id,
        "webhook-timestamp": timestamp,
        "webhook-signature": signature,
      },
      redirect: "manual",
      maxBytes: 64 * 1024,
      timeoutMs: TIMEOUT_MS,
    });
    res.discard();
    const ok = res.status >= 200 && res.status < 300;
    attempt = { delivered: ok, status: res.status, error: ok ? null : `HTTP ${res.status}` };
  } catch (err) {
    attempt = { delivered: false, status: null, error: isOutboundError(err) ? `${err.code}: ${err.message}` : String(err) };
  }
  await db
    .update(webhookDeliveries)
    .set({
      attempts: sql`${webhookDeliveries.attempts} + 1`,
      lastStatusCode: attempt.status,
      lastError: attempt.error,
      ...(attempt.delivered ? { status: "delivered", deliveredAt: new Date() } : {}),
    })
    .where(eq(webhookDeliveries.id, deliveryId));
  return attempt;
}

export async function markCallbackFailed(db: Db, deliveryId: string): Promise<void> {
  await db.update(webhookDeliveries).set({ status: "failed" }).where(eq(webhookDeliveries.id, deliveryId));
}
