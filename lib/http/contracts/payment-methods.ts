import { z } from "zod";
import { defineOperations } from "./operation";

export const paymentMethodSchema = z
  .object({
    id: z.string(),
    cardLast4: z.string().nullable(),
    cardBrand: z.string().nullable(),
    isDefault: z.boolean().meta({ description: "Auto top-up charges the default card" }),
    createdAt: z.iso.datetime(),
  })
  .meta({ id: "PaymentMethod" });

export const paymentMethodListSchema = z.object({ items: z.array(paymentMethodSchema) }).meta({ id: "PaymentMethodList" });
export const paymentMethodResponse = z.object({ method: paymentMethodSchema }).meta({ id: "PaymentMethodResponse" });
export const paymentMethodParams = z.object({ id: z.string().min(1).max(64) });

export const autoTopupBody = z
  .object({
    enabled: z.boolean(),
    thresholdRub: z.int().min(0).max(1_000_000).meta({ description: "Top up when a debit leaves the balance below this many rubles" }),
    amountRub: z.int().min(1).max(1_000_000).meta({ description: "Whole rubles charged to the default card; at least MIN_TOPUP_RUB" }),
  })
  .meta({ id: "AutoTopupRequest" });

export const autoTopupResponse = z.object({ enabled: z.boolean(), thresholdRub: z.int(), amountRub: z.int() }).meta({ id: "AutoTopup" });

export const paymentMethodOperations = defineOperations([
  {
    method: "get",
    path: "/me/payment-methods",
    operationId: "listPaymentMethods",
    summary: "Your saved cards (dashboard session only)",
    tags: ["Billing"],
    surface: "gateway",
    auth: "session",
    responses: { 200: { description: "Saved cards, the default first", schema: paymentMethodListSchema } },
  },
  {
    method: "delete",
    path: "/me/payment-methods/{id}",
    operationId: "deletePaymentMethod",
    summary: "Forget a saved card (dashboard session only); the newest other card becomes the default",
    tags: ["Billing"],
    surface: "gateway",
    auth: "session",
    params: paymentMethodParams,
    errors: ["not_found"],
    responses: { 204: { description: "Deleted" } },
  },
  {
    method: "post",
    path: "/me/payment-methods/{id}/default",
    operationId: "setDefaultPaymentMethod",
    summary: "Make a saved card the default (dashboard session only)",
    tags: ["Billing"],
    surface: "gateway",
    auth: "session",
    params: paymentMethodParams,
    errors: ["not_found"],
    responses: { 200: { description: "The new default", schema: paymentMethodResponse } },
  },
  {
    method: "patch",
    path: "/me/auto-topup",
    operationId: "updateAutoTopup",
    summary: "Auto top-up settings (dashboard session only: they let the service charge your card)",
    tags: ["Billing"],
    surface: "gateway",
    auth: "session",
    body: autoTopupBody,
    errors: ["minimum_topup"],
    responses: { 200: { description: "The settings now in force", schema: autoTopupResponse } },
  },
]);
