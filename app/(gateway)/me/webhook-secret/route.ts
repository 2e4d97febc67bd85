import { meOperations } from "@/lib/http/contracts/me";
import { withGateway } from "@/lib/http/handler";
import { json } from "@/lib/http/json";
import { getWebhookSecret } from "@/lib/account/webhook-secret";
import { otherMethodsOf } from "@/lib/http/unknown-route";

// GET /me/webhook-secret – the secret completion callbacks are signed with
export const GET = withGateway(meOperations.getWebhookSecret, async ({ ctx }) =>
  json({ secret: await getWebhookSecret(ctx) }, { headers: { "Cache-Control": "no-store" } }),
);

// Any other method – 405 method_not_allowed with Allow; OPTIONS – 204 with Allow
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethodsOf({ GET });
