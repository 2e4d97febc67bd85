import { withGateway } from "@/lib/http/handler";
import { json } from "@/lib/http/json";
import { rotateWebhookSecret } from "@/lib/me/webhook-secret";

// POST /me/webhook-secret/rotate – replace the signing secret (dashboard session only)
export const POST = withGateway({ auth: "session" }, async ({ ctx }) =>
  json({ secret: await rotateWebhookSecret(ctx.db, ctx.principal.userId) }, { headers: { "Cache-Control": "no-store" } }),
);
