import { paymentMethodOperations } from "@/lib/http/contracts/payment-methods";
import { withGateway } from "@/lib/http/handler";
import { json } from "@/lib/http/json";
import { listPaymentMethods } from "@/lib/billing/payments/methods/list-methods";
import { otherMethodsOf } from "@/lib/http/unknown-route";

// GET /me/payment-methods – your saved cards (dashboard session only)
export const GET = withGateway(paymentMethodOperations.listPaymentMethods, async ({ ctx }) => json(await listPaymentMethods(ctx)));

// Any other method – 405 method_not_allowed with Allow; OPTIONS – 204 with Allow
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethodsOf({ GET });
