import { randomUUID } from "node:crypto";
import { and, desc, eq, inArray, isNull, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { autoTopupSettings, balances, paymentMethods, payments, users } from "@/db/schema";
import { CREDITS_PER_RUB, rubToCredits } from "@/lib/pricing/credits";
import { applyProviderPayment } from "../apply-provider-payment";
import { isPaymentProviderError } from "../errors";
import type { PaymentRow } from "../payment-view";
import { paymentProvider } from "../registry";

export type AutoTopupOutcome =
  | { charged: true; paymentId: string; status: string }
  | { charged: false; reason: "disabled" | "no_payment_method" | "balance_recovered" | "in_flight"; paymentId?: string };

const isUniqueViolation = (e: unknown): boolean => {
  for (let x: unknown = e; x && typeof x === "object"; x = (x as { cause?: unknown }).cause)
    if ((x as { code?: unknown }).code === "23505") return true;
  return false;
};

/**
 * Charges the user's default card `amountRub` because the balance is below the threshold. At most
 * one automatic top-up is in flight per user: the payments row is inserted first, and the partial
 * unique index payments_one_auto_topup_in_flight_uq refuses a second one while the first is
 * pending. A retry of this step finds its own in-flight row without a provider id and resumes it
 * with the same Idempotence-Key, so the card is charged once however often the step runs.
 */
export async function chargeAutoTopup(db: Db, userId: string): Promise<AutoTopupOutcome> {
  const [state] = await db
    .select({
      enabled: autoTopupSettings.enabled,
      thresholdRub: autoTopupSettings.thresholdRub,
      amountRub: autoTopupSettings.amountRub,
      credits: balances.credits,
      email: users.email,
    })
    .from(autoTopupSettings)
    .innerJoin(users, eq(users.id, autoTopupSettings.userId))
    .leftJoin(balances, eq(balances.userId, autoTopupSettings.userId))
    .where(eq(autoTopupSettings.userId, userId));
  if (!state?.enabled || state.amountRub <= 0) return { charged: false, reason: "disabled" };

  const inFlight = await findInFlight(db, userId);
  if (inFlight?.paymentProviderId) return { charged: false, reason: "in_flight", paymentId: inFlight.id };
  let row = inFlight;
  if (!row) {
    if ((state.credits ?? 0) >= state.thresholdRub * CREDITS_PER_RUB) return { charged: false, reason: "balance_recovered" };
    const [method] = await db
      .select()
      .from(paymentMethods)
      .where(and(eq(paymentMethods.userId, userId), eq(paymentMethods.isDefault, true)));
    if (!method) return { charged: false, reason: "no_payment_method" };
    const id = `pay_${randomUUID()}`;
    try {
      [row] = await db
        .insert(payments)
        .values({
          id,
          userId,
          provider: method.provider,
          kind: "auto_topup",
          amountKopecks: state.amountRub * 100,
          creditsToGrant: rubToCredits(state.amountRub),
          description: `Auto top-up, ${state.amountRub} ₽`,
          paymentMethodId: method.id,
          idempotenceKey: id,
        })
        .returning();
    } catch (err) {
      if (!isUniqueViolation(err)) throw err;
      const other = await findInFlight(db, userId);
      return { charged: false, reason: "in_flight", paymentId: other?.id };
    }
    // Holding the in-flight slot, look again: a top-up that finished just before us (it frees the
    // slot in the same transaction that grants its credits) may already have lifted the balance.
    const [now] = await db.select({ credits: balances.credits }).from(balances).where(eq(balances.userId, userId));
    if ((now?.credits ?? 0) >= state.thresholdRub * CREDITS_PER_RUB) {
      await db.delete(payments).where(and(eq(payments.id, id), isNull(payments.paymentProviderId)));
      return { charged: false, reason: "balance_recovered" };
    }
    await db.update(autoTopupSettings).set({ lastTriggeredAt: new Date() }).where(eq(autoTopupSettings.userId, userId));
  }
  return chargeRow(db, row!, state.email);
}

async function findInFlight(db: Db, userId: string): Promise<PaymentRow | undefined> {
  const [row] = await db
    .select()
    .from(payments)
    .where(and(eq(payments.userId, userId), eq(payments.kind, "auto_topup"), inArray(payments.status, ["pending", "waiting_for_capture"])))
    .orderBy(desc(payments.createdAt))
    .limit(1);
  return row;
}

async function chargeRow(db: Db, row: PaymentRow, email: string | null): Promise<AutoTopupOutcome> {
  const [method] = row.paymentMethodId ? await db.select().from(paymentMethods).where(eq(paymentMethods.id, row.paymentMethodId)) : [];
  if (!method) {
    await cancel(db, row.id, "payment_method_removed");
    return { charged: false, reason: "no_payment_method" };
  }
  let remote;
  try {
    remote = await paymentProvider(row.provider).chargeSavedMethod({
      idempotenceKey: row.idempotenceKey,
      amountKopecks: row.amountKopecks,
      description: row.description ?? "Auto top-up",
      metadata: { paymentId: row.id, userId: row.userId },
      customerEmail: email,
      providerMethodId: method.providerMethodId,
    });
  } catch (err) {
    // A refusal (4xx) is final: close the payment so the next crossing may try again. Anything
    // retryable is thrown to the function's retries, which resume this same row and key.
    if (isPaymentProviderError(err) && !err.retryable) await cancel(db, row.id, err.providerCode ?? "provider_refused");
    throw err;
  }
  await db.update(payments).set({ paymentProviderId: remote.id, providerData: remote.raw }).where(eq(payments.id, row.id));
  const applied = await applyProviderPayment(db, { ...row, paymentProviderId: remote.id }, remote);
  // A concurrent call resumed the same row (same Idempotence-Key: one charge at the provider) and
  // applied it first: that call made the charge, this one only saw it.
  if (!applied.applied && applied.reason?.startsWith("already_")) return { charged: false, reason: "in_flight", paymentId: row.id };
  return { charged: true, paymentId: row.id, status: applied.payment.status };
}

async function cancel(db: Db, id: string, reason: string) {
  await db
    .update(payments)
    .set({ status: "canceled", cancellationReason: reason })
    .where(and(eq(payments.id, id), sql`${payments.status} not in ('succeeded', 'canceled')`));
}
