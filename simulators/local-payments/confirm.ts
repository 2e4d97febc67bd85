import type { ServiceContext } from "@/lib/auth/context";
import { randomUUID } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import type { Executor } from "@/db/client";
import { localProviderPayments } from "@/db/schema";
import { env } from "@/lib/core/env";
import { log } from "@/lib/core/logger";
import { kopecksToValue } from "@/lib/billing/payments/amount";
import { localPaymentOwnedBy } from "./get-local-payment";
import { localPaymentSecret } from "./secret";

export type LocalOutcome = "pay" | "decline";

/** A test card per outcome, like a real provider's sandbox cards. */
const TEST_CARD = { last4: "4242", brand: "Visa" };

/**
 * What the payment's owner chose on the local confirmation page: the payment succeeds (saving the
 * card when it was asked for) or is canceled, once — a second click changes nothing. Then the local
 * provider notifies the app exactly as YooKassa would, and hands back where to send the browser.
 * Null when the payment is unknown or not the user's: nobody else may pay or decline it.
 */
export const confirmLocalPayment = (ctx: ServiceContext, id: string, outcome: LocalOutcome) =>
  decideLocalPayment(ctx.db, ctx.principal.userId, id, outcome);

/** The same decision for `userId` (tests stand in for the owner's browser with it). */
export async function decideLocalPayment(
  db: Executor,
  userId: string,
  id: string,
  outcome: LocalOutcome,
): Promise<{ returnUrl: string | null; status: string } | null> {
  const [row] = await db
    .update(localProviderPayments)
    .set(
      outcome === "pay"
        ? {
            status: "succeeded",
            paymentMethodId: `lpm_${randomUUID()}`,
            // The card is kept for later charges only when the shop asked to save it.
            paymentMethodSaved: sql`${localProviderPayments.savePaymentMethod}`,
            cardLast4: TEST_CARD.last4,
            cardBrand: TEST_CARD.brand,
          }
        : { status: "canceled", cancellationReason: "canceled_by_user" },
    )
    .where(and(eq(localProviderPayments.id, id), eq(localProviderPayments.status, "pending"), localPaymentOwnedBy(userId)))
    .returning();
  if (!row) {
    const [current] = await db
      .select()
      .from(localProviderPayments)
      .where(and(eq(localProviderPayments.id, id), localPaymentOwnedBy(userId)));
    return current ? { returnUrl: current.returnUrl, status: current.status } : null;
  }
  await notifyApp(row.status === "succeeded" ? "payment.succeeded" : "payment.canceled", row.id, row.amountKopecks);
  return { returnUrl: row.returnUrl, status: row.status };
}

/**
 * POSTs the notification to the app's own receiver, over HTTP like the real provider. A failed
 * delivery is only logged: the payment is re-read when the user returns and by the sweep.
 */
export async function notifyApp(event: string, id: string, amountKopecks: number): Promise<void> {
  const url = new URL("/webhooks/yookassa/notify", env().APP_URL);
  try {
    const res = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${localPaymentSecret()}` },
      body: JSON.stringify({
        type: "notification",
        event,
        object: { id, status: event.split(".")[1], amount: { value: kopecksToValue(amountKopecks), currency: "RUB" } },
      }),
      signal: AbortSignal.timeout(10_000),
    });
    if (!res.ok) log.warn("the local payment notification was refused", { status: res.status, id });
  } catch (err) {
    log.warn("the local payment notification could not be delivered", { id, error: (err as Error).message });
  }
}
