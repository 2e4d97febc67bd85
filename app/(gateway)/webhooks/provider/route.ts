import { handleProviderWebhook } from "@/lib/generation";
import { providerWebhookOperations } from "@/lib/http/contracts/provider-webhook";
import { withGateway } from "@/lib/http/handler";
import { json } from "@/lib/http/json";
import { otherMethodsOf } from "@/lib/http/unknown-route";

// POST /webhooks/provider – a provider's job completion (signature-verified; the raw body is what is signed)
export const POST = withGateway(
  providerWebhookOperations.providerWebhook,
  async ({ req, ctx }) => json(await handleProviderWebhook(ctx.db, req)),
  { raw: ["body"] },
);

// Any other method – 405 method_not_allowed with Allow; OPTIONS – 204 with Allow
export const { GET, PUT, PATCH, DELETE, HEAD, OPTIONS } = otherMethodsOf({ POST });
