import { z } from "zod";
import { paymentStatuses } from "@/db/schema";
import { valueToKopecks } from "../amount";
import { PaymentProviderError } from "../errors";
import type { ProviderPayment } from "../provider";

/** The subset of YooKassa's payment object we read (notes/payments-auth.md §A1); unknown fields are ignored. */
export const yookassaPaymentSchema = z.looseObject({
  id: z.string().min(1),
  status: z.enum(paymentStatuses),
  amount: z.object({ value: z.string(), currency: z.string() }),
  confirmation: z.looseObject({ type: z.string(), confirmation_url: z.string().optional() }).nullish(),
  payment_method: z
    .looseObject({
      id: z.string(),
      saved: z.boolean().default(false),
      title: z.string().nullish(),
      card: z.looseObject({ last4: z.string().nullish(), card_type: z.string().nullish() }).nullish(),
    })
    .nullish(),
  cancellation_details: z.looseObject({ party: z.string().nullish(), reason: z.string().nullish() }).nullish(),
  metadata: z.record(z.string(), z.string()).nullish(),
});

/** `{type:"error", id, code, description}` */
export const yookassaErrorSchema = z.looseObject({
  type: z.literal("error"),
  code: z.string().optional(),
  description: z.string().optional(),
});

export function toProviderPayment(body: unknown): ProviderPayment {
  const parsed = yookassaPaymentSchema.safeParse(body);
  if (!parsed.success) throw new PaymentProviderError("YooKassa answered with an unexpected payment object", null, false);
  const p = parsed.data;
  const method = p.payment_method;
  return {
    id: p.id,
    status: p.status,
    amountKopecks: valueToKopecks(p.amount.value),
    currency: p.amount.currency,
    confirmationUrl: p.confirmation?.confirmation_url ?? null,
    paymentMethod: method
      ? {
          id: method.id,
          saved: method.saved,
          last4: method.card?.last4 ?? null,
          brand: method.card?.card_type ?? null,
          title: method.title ?? null,
        }
      : null,
    cancellationReason: p.cancellation_details?.reason ?? null,
    metadata: p.metadata ?? {},
    receiptUrl: null,
    raw: p as Record<string, unknown>,
  };
}
