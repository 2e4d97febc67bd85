import { withGateway } from "@/lib/http/handler";
import { json } from "@/lib/http/json";
import { rotateWebhookSecret } from "@/lib/me/webhook-secret";
import { gatewayOtherMethods } from "@/lib/http/unknown-route";

// POST /me/webhook-secret/rotate – replace the signing secret (dashboard session only)
export const POST = withGateway({ auth: "session" }, async ({ ctx }) =>
  json({ secret: await rotateWebhookSecret(ctx) }, { headers: { "Cache-Control": "no-store" } }),
);

// Any other method – 405 method_not_allowed with Allow; OPTIONS – 204 with Allow
export const { GET, PUT, PATCH, DELETE, HEAD, OPTIONS } = gatewayOtherMethods("POST");
