import { billingOperations } from "@/lib/http/contracts/billing";
import { withGateway } from "@/lib/http/handler";
import { json } from "@/lib/http/json";
import { createTopup } from "@/lib/billing/payments/create-topup";
import { otherMethodsOf } from "@/lib/http/unknown-route";

// POST /billing/topup – start a card top-up; the user confirms at confirmationUrl
export const POST = withGateway(billingOperations.createTopup, async ({ ctx, body }) =>
  json(await createTopup(ctx, body), { status: 201 }),
);

// Any other method – 405 method_not_allowed with Allow; OPTIONS – 204 with Allow
export const { GET, PUT, PATCH, DELETE, HEAD, OPTIONS } = otherMethodsOf({ POST });
