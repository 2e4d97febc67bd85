import { paymentMethodOperations } from "@/lib/http/contracts/payment-methods";
import { withGateway } from "@/lib/http/handler";
import { json } from "@/lib/http/json";
import { updateAutoTopup } from "@/lib/billing/payments/auto-topup/settings";
import { otherMethodsOf } from "@/lib/http/unknown-route";

// PATCH /me/auto-topup – auto top-up settings (dashboard session only: they let us charge your card)
export const PATCH = withGateway(paymentMethodOperations.updateAutoTopup, async ({ ctx, body }) => json(await updateAutoTopup(ctx, body)));

// Any other method – 405 method_not_allowed with Allow; OPTIONS – 204 with Allow
export const { GET, POST, PUT, DELETE, HEAD, OPTIONS } = otherMethodsOf({ PATCH });
