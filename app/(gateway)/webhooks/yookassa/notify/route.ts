import { billingOperations } from "@/lib/http/contracts/billing";
import { withGateway } from "@/lib/http/handler";
import { json } from "@/lib/http/json";
import { UNVERIFIED_BODY_MAX_BYTES } from "@/lib/http/request";
import { handlePaymentNotification } from "@/lib/billing/payments/handle-notification";
import { webhookIpLimit } from "@/lib/rate-limit/rules";
import { otherMethodsOf } from "@/lib/http/unknown-route";

// POST /webhooks/yookassa/notify – payment provider notifications (authenticated, exactly-once grant; body ≤ 1 MiB)
export const POST = withGateway(
  billingOperations.receivePaymentNotification,
  async ({ req, ctx, body }) => json(await handlePaymentNotification(ctx.db, req, body)),
  { rateLimit: [webhookIpLimit], maxBodyBytes: UNVERIFIED_BODY_MAX_BYTES },
);

// Any other method – 405 method_not_allowed with Allow; OPTIONS – 204 with Allow
export const { GET, PUT, PATCH, DELETE, HEAD, OPTIONS } = otherMethodsOf({ POST });
