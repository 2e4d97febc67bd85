import { withGateway } from "@/lib/http/handler";
import { json } from "@/lib/http/json";
import { getWebhookSecret } from "@/lib/me/webhook-secret";
import { gatewayOtherMethods } from "@/lib/http/unknown-route";

// GET /me/webhook-secret – the secret completion callbacks are signed with
export const GET = withGateway({ auth: "key" }, async ({ ctx }) =>
  json({ secret: await getWebhookSecret(ctx) }, { headers: { "Cache-Control": "no-store" } }),
);

// Any other method – 405 method_not_allowed with Allow; OPTIONS – 204 with Allow
export const { POST, PUT, PATCH, DELETE, OPTIONS } = gatewayOtherMethods("GET");
