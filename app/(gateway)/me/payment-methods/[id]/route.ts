import { paymentMethodOperations } from "@/lib/http/contracts/payment-methods";
import { withGateway } from "@/lib/http/handler";
import { noContent } from "@/lib/http/json";
import { deletePaymentMethod } from "@/lib/billing/payments/methods/delete-method";
import { otherMethodsOf } from "@/lib/http/unknown-route";

// DELETE /me/payment-methods/{id} – forget a saved card (dashboard session only)
export const DELETE = withGateway(paymentMethodOperations.deletePaymentMethod, async ({ ctx, params }) => {
  await deletePaymentMethod(ctx, params.id);
  return noContent();
});

// Any other method – 405 method_not_allowed with Allow; OPTIONS – 204 with Allow
export const { GET, POST, PUT, PATCH, HEAD, OPTIONS } = otherMethodsOf({ DELETE });
