import { randomUUID } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { getDb, type Executor } from "@/db/client";
import { localProviderPayments } from "@/db/schema";
import { env } from "@/lib/core/env";
import { PaymentProviderError } from "@/lib/billing/payments/errors";
import type { PaymentProvider, ProviderPayment, RedirectPaymentInput, SavedMethodChargeInput } from "@/lib/billing/payments/provider";

type Row = typeof localProviderPayments.$inferSelect;

export const localConfirmationPath = (id: string) => `/pay/local/${id}`;

export function toProviderPayment(row: Row): ProviderPayment {
  return {
    id: row.id,
    status: row.status,
    amountKopecks: row.amountKopecks,
    currency: row.currency,
    confirmationUrl: row.returnUrl === null ? null : new URL(localConfirmationPath(row.id), env().APP_URL).toString(),
    paymentMethod: row.paymentMethodId
      ? {
          id: row.paymentMethodId,
          saved: row.paymentMethodSaved,
          last4: row.cardLast4,
          brand: row.cardBrand,
          title: row.cardLast4 ? `${row.cardBrand} *${row.cardLast4}` : null,
        }
      : null,
    cancellationReason: row.cancellationReason,
    metadata: row.metadata,
    receiptUrl: null,
    raw: { ...row, createdAt: row.createdAt.toISOString(), updatedAt: row.updatedAt.toISOString() },
  };
}

/** Creates once per Idempotence-Key; a repeat returns the first payment, as a real provider does. */
async function createOnce(db: Executor, values: typeof localProviderPayments.$inferInsert): Promise<Row> {
  const [created] = await db
    .insert(localProviderPayments)
    .values(values)
    .onConflictDoNothing({ target: localProviderPayments.idempotenceKey })
    .returning();
  if (created) return created;
  const [existing] = await db.select().from(localProviderPayments).where(eq(localProviderPayments.idempotenceKey, values.idempotenceKey));
  return existing!;
}

/**
 * The embedded provider (PAYMENT_PROVIDER=local): payments wait on the in-app confirmation page
 * (/pay/local/{id}) where a developer pays or declines; saved cards are charged at once.
 */
export class LocalPaymentProvider implements PaymentProvider {
  readonly name = "local" as const;

  async createRedirectPayment(input: RedirectPaymentInput): Promise<ProviderPayment> {
    const row = await createOnce(await getDb(), {
      id: `lp_${randomUUID()}`,
      idempotenceKey: input.idempotenceKey,
      amountKopecks: input.amountKopecks,
      description: input.description,
      metadata: input.metadata,
      returnUrl: input.returnUrl,
      savePaymentMethod: input.savePaymentMethod,
    });
    return toProviderPayment(row);
  }

  async getPayment(providerPaymentId: string): Promise<ProviderPayment | null> {
    const [row] = await (await getDb()).select().from(localProviderPayments).where(eq(localProviderPayments.id, providerPaymentId));
    return row ? toProviderPayment(row) : null;
  }

  async chargeSavedMethod(input: SavedMethodChargeInput): Promise<ProviderPayment> {
    const db = await getDb();
    const [card] = await db
      .select()
      .from(localProviderPayments)
      .where(and(eq(localProviderPayments.paymentMethodId, input.providerMethodId), eq(localProviderPayments.paymentMethodSaved, true)))
      .limit(1);
    if (!card) throw new PaymentProviderError(`saved method ${input.providerMethodId} is unknown`, 400, false, "invalid_request");
    const row = await createOnce(db, {
      id: `lp_${randomUUID()}`,
      idempotenceKey: input.idempotenceKey,
      amountKopecks: input.amountKopecks,
      description: input.description,
      metadata: input.metadata,
      status: "succeeded",
      paymentMethodId: card.paymentMethodId,
      paymentMethodSaved: true,
      cardLast4: card.cardLast4,
      cardBrand: card.cardBrand,
    });
    return toProviderPayment(row);
  }
}
