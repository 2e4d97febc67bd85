import { billingOperations } from "@/lib/http/contracts/billing";
import { withGateway } from "@/lib/http/handler";
import { json } from "@/lib/http/json";
import { listPayments } from "@/lib/billing/payments/list-payments";
import { otherMethodsOf } from "@/lib/http/unknown-route";

// GET /billing/payments – your payments, newest first
export const GET = withGateway(billingOperations.listPayments, async ({ ctx, query }) => json(await listPayments(ctx, query)));

// Any other method – 405 method_not_allowed with Allow; OPTIONS – 204 with Allow
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethodsOf({ GET });
