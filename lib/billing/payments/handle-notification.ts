import { and, eq, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { inboundEvents, payments } from "@/db/schema";
import { clientAddress } from "@/lib/net/client-address";
import { DomainError } from "@/lib/core/errors";
import { log } from "@/lib/core/logger";
import { valueToKopecks } from "./amount";
import { applyProviderPayment } from "./apply-provider-payment";
import { isPaymentProviderError, paymentProviderDomainError } from "./errors";
import type { ProviderName } from "./provider";
import { paymentProvider, paymentProviderByBearer } from "./registry";
import { isTrustedYookassaAddress } from "./trusted-ips";

export type Notification = {
  type?: string;
  event: string;
  object: { id: string; status?: string; amount?: { value: string; currency?: string } } & Record<string, unknown>;
};

export type NotificationResult = { ok: boolean; processed: boolean; reason: string | null; deduped: boolean };

/**
 * Who sent the notification. YooKassa signs nothing: a notification from it must come from its
 * published address ranges (YOOKASSA_TRUSTED_IPS), checked against the client address: the
 * socket's peer, or what a proxy named by TRUST_PROXY reports (lib/net/client-address.ts). The
 * local provider sends `Authorization: Bearer <LOCAL_PAYMENT_SECRET>`, which its registration
 * recognises (`acceptsBearer`, ./registry.ts). Either way the body is only a hint: the payment is
 * re-read from that provider before anything is granted.
 */
function authenticate(req: Request): ProviderName {
  const auth = req.headers.get("authorization");
  if (auth !== null) {
    const secret = /^Bearer\s+(.+)$/i.exec(auth)?.[1]?.trim();
    const provider = secret ? paymentProviderByBearer(secret) : null;
    if (provider) return provider;
    throw new DomainError("invalid_signature", "The notification's credentials are not valid");
  }
  if (isTrustedYookassaAddress(clientAddress(req))) return "yookassa";
  throw new DomainError("invalid_signature", "The notification does not come from the payment provider");
}

const result = (processed: boolean, reason: string | null, deduped: boolean): NotificationResult => ({
  ok: true,
  processed,
  reason,
  deduped,
});

/**
 * POST /webhooks/yookassa/notify. Recorded first in inbound_events (unique per provider, event and
 * payment), so a redelivery answers `deduped: true`; then the payment is re-read from the provider
 * and applied exactly once (lib/billing/payments/apply-provider-payment.ts). Events we do not act on are
 * acknowledged with 200 and `processed: false`, so the provider stops redelivering them.
 */
export async function handlePaymentNotification(db: Db, req: Request, body: Notification): Promise<NotificationResult> {
  const provider = authenticate(req);
  const [kind] = body.event.split(".");
  if (kind !== "payment") return result(false, "ignored_event", false);

  const externalId = `${body.event}:${body.object.id}`;
  const recorded = await db
    .insert(inboundEvents)
    .values({ source: provider, externalId, payload: body })
    .onConflictDoNothing({ target: [inboundEvents.source, inboundEvents.externalId] })
    .returning({ id: inboundEvents.id });
  const deduped = recorded.length === 0;

  const outcome = await applyNotification(db, provider, body);
  const final = result(outcome.processed, outcome.reason, deduped);
  await db
    .update(inboundEvents)
    .set({
      handledAt: sql`coalesce(${inboundEvents.handledAt}, now())`,
      // The delivery that applied the payment is the one worth keeping; otherwise the first answer.
      result: final.processed ? final : sql`coalesce(${inboundEvents.result}, ${JSON.stringify(final)}::jsonb)`,
    })
    .where(and(eq(inboundEvents.source, provider), eq(inboundEvents.externalId, externalId)));
  return final;
}

async function applyNotification(
  db: Db,
  provider: ProviderName,
  body: Notification,
): Promise<{ processed: boolean; reason: string | null }> {
  const [row] = await db
    .select()
    .from(payments)
    .where(and(eq(payments.provider, provider), eq(payments.paymentProviderId, body.object.id)));
  if (!row) return { processed: false, reason: "unknown_payment" };
  // A body that names another amount is not about this payment, whatever the provider says.
  if (body.object.amount && !sameAmount(body.object.amount.value, row.amountKopecks)) {
    log.warn("payment notification with a foreign amount ignored", { paymentId: row.id });
    return { processed: false, reason: "amount_mismatch" };
  }
  let remote;
  try {
    remote = await paymentProvider(provider).getPayment(body.object.id);
  } catch (err) {
    // 502 makes the provider redeliver later, when it can be checked.
    if (isPaymentProviderError(err)) throw paymentProviderDomainError(err);
    throw err;
  }
  if (!remote) return { processed: false, reason: "unknown_at_provider" };
  const claimed = body.event.slice("payment.".length);
  const applied = await applyProviderPayment(db, row, remote);
  if (applied.applied) {
    return remote.status === claimed ? { processed: true, reason: null } : { processed: true, reason: `provider_says_${remote.status}` };
  }
  return { processed: false, reason: applied.reason };
}

function sameAmount(value: string, kopecks: number): boolean {
  try {
    return valueToKopecks(value) === kopecks;
  } catch {
    return false;
  }
}
