import { paymentMethodOperations } from "@/lib/http/contracts/payment-methods";
import { withGateway } from "@/lib/http/handler";
import { json } from "@/lib/http/json";
import { setDefaultPaymentMethod } from "@/lib/billing/payments/methods/set-default-method";
import { otherMethodsOf } from "@/lib/http/unknown-route";

// POST /me/payment-methods/{id}/default – make a saved card the default (dashboard session only)
export const POST = withGateway(paymentMethodOperations.setDefaultPaymentMethod, async ({ ctx, params }) =>
  json(await setDefaultPaymentMethod(ctx, params.id)),
);

// Any other method – 405 method_not_allowed with Allow; OPTIONS – 204 with Allow
export const { GET, PUT, PATCH, DELETE, HEAD, OPTIONS } = otherMethodsOf({ POST });
