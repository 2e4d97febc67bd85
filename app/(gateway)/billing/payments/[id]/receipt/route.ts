import { billingOperations } from "@/lib/http/contracts/billing";
import { withGateway } from "@/lib/http/handler";
import { receiptUrl } from "@/lib/billing/payments/receipt-url";
import { otherMethodsOf } from "@/lib/http/unknown-route";

// GET /billing/payments/{id}/receipt – redirect to the payment's receipt
export const GET = withGateway(billingOperations.getPaymentReceipt, async ({ ctx, params }) =>
  Response.redirect(await receiptUrl(ctx, params.id), 302),
);

// Any other method – 405 method_not_allowed with Allow; OPTIONS – 204 with Allow
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethodsOf({ GET });
