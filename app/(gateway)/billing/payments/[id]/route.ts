import { billingOperations } from "@/lib/http/contracts/billing";
import { withGateway } from "@/lib/http/handler";
import { json } from "@/lib/http/json";
import { getPaymentFresh } from "@/lib/billing/payments/get-payment";
import { toPaymentView } from "@/lib/billing/payments/payment-view";
import { otherMethodsOf } from "@/lib/http/unknown-route";

// GET /billing/payments/{id} – one payment (by the provider's id); a pending one is re-read first
export const GET = withGateway(billingOperations.getPayment, async ({ ctx, params }) =>
  json({ payment: toPaymentView(await getPaymentFresh(ctx, params.id)) }),
);

// Any other method – 405 method_not_allowed with Allow; OPTIONS – 204 with Allow
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethodsOf({ GET });
