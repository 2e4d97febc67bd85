import { meOperations } from "@/lib/http/contracts/me";
import { withGateway } from "@/lib/http/handler";
import { json } from "@/lib/http/json";
import { rotateWebhookSecret } from "@/lib/account/webhook-secret";
import { otherMethodsOf } from "@/lib/http/unknown-route";

// POST /me/webhook-secret/rotate – replace the signing secret (dashboard session only)
export const POST = withGateway(meOperations.rotateWebhookSecret, async ({ ctx }) =>
  json({ secret: await rotateWebhookSecret(ctx) }, { headers: { "Cache-Control": "no-store" } }),
);

// Any other method – 405 method_not_allowed with Allow; OPTIONS – 204 with Allow
export const { GET, PUT, PATCH, DELETE, HEAD, OPTIONS } = otherMethodsOf({ POST });
