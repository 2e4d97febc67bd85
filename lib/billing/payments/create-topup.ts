import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { payments } from "@/db/schema";
import type { Principal } from "@/lib/auth/principal";
import { env } from "@/lib/core/env";
import { DomainError } from "@/lib/core/errors";
import { rubToCredits } from "@/lib/pricing/credits";
import { isPaymentProviderError, paymentProviderDomainError } from "./errors";
import { toPaymentView } from "./payment-view";
import { currentPaymentProvider } from "./registry";

export type TopupInput = { amountRub: number; returnUrl: string; savePaymentMethod?: boolean };

/**
 * POST /billing/topup: records the payment first (its id is the provider's Idempotence-Key and
 * travels in the metadata), then asks the provider for a redirect payment. Credits are granted
 * only when the provider later says `succeeded` (notification, return, or the sweep).
 */
export async function createTopup(ctx: { db: Db; principal: Principal }, input: TopupInput) {
  const min = env().MIN_TOPUP_RUB;
  if (input.amountRub < min) {
    throw new DomainError("minimum_topup", `The smallest top-up is ${min} ₽`, {
      recovery: { action: "topup", url: "/billing/topup", minAmountRub: min },
    });
  }
  const provider = currentPaymentProvider();
  const id = `pay_${randomUUID()}`;
  const amountKopecks = input.amountRub * 100;
  const description = `Balance top-up, ${input.amountRub} ₽`;
  const [row] = await ctx.db
    .insert(payments)
    .values({
      id,
      userId: ctx.principal.userId,
      provider: provider.name,
      kind: "topup",
      amountKopecks,
      creditsToGrant: rubToCredits(input.amountRub),
      description,
      returnUrl: input.returnUrl,
      savePaymentMethod: input.savePaymentMethod ?? false,
      idempotenceKey: id,
    })
    .returning();
  try {
    const remote = await provider.createRedirectPayment({
      idempotenceKey: id,
      amountKopecks,
      description,
      metadata: { paymentId: id, userId: ctx.principal.userId },
      customerEmail: ctx.principal.email,
      returnUrl: input.returnUrl,
      savePaymentMethod: input.savePaymentMethod ?? false,
    });
    const [updated] = await ctx.db
      .update(payments)
      .set({ paymentProviderId: remote.id, status: remote.status, confirmationUrl: remote.confirmationUrl, providerData: remote.raw })
      .where(eq(payments.id, id))
      .returning();
    return { payment: toPaymentView(updated!), confirmationUrl: remote.confirmationUrl };
  } catch (err) {
    if (!isPaymentProviderError(err)) throw err;
    // The provider refused or failed: the payment can never be confirmed, so it is closed here.
    await ctx.db.update(payments).set({ status: "canceled", cancellationReason: "provider_error" }).where(eq(payments.id, row!.id));
    throw paymentProviderDomainError(err);
  }
}
