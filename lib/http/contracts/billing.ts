import { z } from "zod";
import { paymentStatuses } from "@/db/schema";
import { env } from "@/lib/core/env";
import { limitQuery, offsetQuery } from "./models";
import { defineOperations } from "./operation";

const MAX_TOPUP_RUB = 1_000_000;

export const paymentSchema = z
  .object({
    id: z.string().meta({ description: "Our payment id (`pay_…`)" }),
    paymentProviderId: z
      .string()
      .nullable()
      .meta({ description: "The payment provider's payment id; null until the provider accepted it" }),
    status: z.enum(paymentStatuses).meta({ description: "pending → (waiting_for_capture) → succeeded | canceled; the last two are final" }),
    kind: z.enum(["topup", "auto_topup"]),
    creditsToGrant: z.int().meta({ description: "Credits added when the payment succeeds (1 credit = 0.0001 ₽)" }),
    amountKopecks: z.int(),
    currency: z.string(),
    description: z.string().nullable(),
    cancellationReason: z.string().nullable().meta({ description: "Why a canceled payment was canceled (the provider's reason)" }),
    createdAt: z.iso.datetime(),
  })
  .meta({ id: "Payment" });

/** A return address on APP_URL's origin (one the URL check already refuses is left to that check). */
function onThisSite(url: string): boolean {
  if (!URL.canParse(url) || !/^https?:$/.test(new URL(url).protocol)) return true;
  return new URL(url).origin === new URL(env().APP_URL).origin;
}

export const topupBody = z
  .object({
    amountRub: z.int().min(1).max(MAX_TOPUP_RUB).meta({ description: "Whole rubles; below MIN_TOPUP_RUB answers 400 minimum_topup" }),
    returnUrl: z
      .url({ protocol: /^https?$/ })
      .max(2048)
      // On this site only, or the payment flow would be an open redirect through the provider.
      .refine(onThisSite, "must be on this site (APP_URL's origin)")
      .meta({ description: "Where the provider sends the browser after the payment; must be on the service's own origin (APP_URL)" }),
    savePaymentMethod: z.boolean().optional().meta({ description: "Save the card for auto top-up (default false)" }),
  })
  .meta({ id: "TopupRequest" });

export const topupResponse = z
  .object({ payment: paymentSchema, confirmationUrl: z.string().nullable().meta({ description: "Send the user here to pay" }) })
  .meta({ id: "Topup" });

export const paymentListQuery = z.object({ limit: limitQuery, offset: offsetQuery });
export const paymentListSchema = z
  .object({ items: z.array(paymentSchema), total: z.int(), limit: z.int(), offset: z.int() })
  .meta({ id: "PaymentList" });
export const paymentParams = z.object({
  id: z.string().min(1).max(128).meta({ description: "The payment-provider payment id (our `pay_…` id works too)" }),
});
export const paymentResponse = z.object({ payment: paymentSchema }).meta({ id: "PaymentResponse" });

export const notificationBody = z
  .object({
    type: z.string().optional(),
    event: z.string().min(1).max(100).meta({ description: "`payment.succeeded`, `payment.canceled`, `payment.waiting_for_capture`, …" }),
    object: z.looseObject({
      id: z.string().min(1).max(128),
      status: z.string().optional(),
      amount: z.object({ value: z.string(), currency: z.string().optional() }).optional(),
    }),
  })
  .meta({ id: "PaymentNotification" });

export const notificationResult = z
  .object({
    ok: z.boolean(),
    processed: z.boolean().meta({ description: "This delivery changed the payment (and granted the credits on success)" }),
    reason: z.string().nullable().meta({
      description:
        "Why nothing was done: unknown_payment, amount_mismatch, already_succeeded, already_canceled, still_pending, unknown_at_provider, ignored_event, …",
    }),
    deduped: z.boolean().meta({ description: "The same event for the same payment was received before" }),
  })
  .meta({ id: "PaymentNotificationResult" });

/** The local provider's pay page posts its decision here. */
export const localDecisionParams = z.object({ id: z.string().min(1).max(128), outcome: z.enum(["pay", "decline"]) });

export const billingOperations = defineOperations([
  {
    method: "post",
    path: "/billing/topup",
    operationId: "createTopup",
    summary: "Start a card top-up; send the user to confirmationUrl",
    description:
      "Credits are granted once the payment provider reports the payment succeeded (notification, return, or the periodic sweep).",
    tags: ["Billing"],
    surface: "gateway",
    auth: "key",
    body: topupBody,
    errors: ["minimum_topup", "payment_provider"],
    responses: { 201: { description: "The payment and where to confirm it", schema: topupResponse } },
  },
  {
    method: "get",
    path: "/billing/payments",
    operationId: "listPayments",
    summary: "Your payments, newest first",
    tags: ["Billing"],
    surface: "gateway",
    auth: "key",
    query: paymentListQuery,
    responses: { 200: { description: "A page of payments", schema: paymentListSchema } },
  },
  {
    method: "get",
    path: "/billing/payments/{id}",
    operationId: "getPayment",
    summary: "One payment; a pending one is re-read from the provider first",
    tags: ["Billing"],
    surface: "gateway",
    auth: "key",
    params: paymentParams,
    errors: ["not_found"],
    responses: { 200: { description: "The payment", schema: paymentResponse } },
  },
  {
    method: "get",
    path: "/billing/payments/{id}/receipt",
    operationId: "getPaymentReceipt",
    summary: "Redirect to the payment's receipt",
    description:
      "The provider's receipt page when it has one, otherwise the service's printable receipt. Only succeeded payments have one.",
    tags: ["Billing"],
    surface: "gateway",
    auth: "key",
    params: paymentParams,
    errors: ["not_found"],
    responses: { 302: { description: "Location: the receipt" } },
  },
  {
    method: "post",
    path: "/webhooks/yookassa/notify",
    operationId: "receivePaymentNotification",
    summary: "Payment provider notifications",
    description:
      "Authenticated by the provider's published address ranges (YooKassa) or `Authorization: Bearer <LOCAL_PAYMENT_SECRET>` (local provider); anything else is 401 invalid_signature. The payment is always re-read from the provider before credits are granted, exactly once. 100 requests per minute per address.",
    tags: ["Webhooks"],
    surface: "gateway",
    auth: "none",
    body: notificationBody,
    errors: ["invalid_signature", "rate_limited", "payment_provider"],
    responses: { 200: { description: "Acknowledged", schema: notificationResult } },
  },
  {
    method: "post",
    path: "/pay/local/{id}/{outcome}",
    operationId: "decideLocalPayment",
    summary: "The local payment provider's pay and decline buttons (the payment's owner, signed in)",
    tags: ["Internal"],
    surface: "gateway",
    auth: "optional",
    internal: true,
    params: localDecisionParams,
    responses: { 303: { description: "Location: the payment's return URL" } },
    errors: ["not_found"],
  },
]);
