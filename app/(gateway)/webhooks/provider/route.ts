import { handleProviderWebhook } from "@/lib/generation/provider-webhook";
import { withGateway } from "@/lib/http/handler";
import { json } from "@/lib/http/json";

// POST /webhooks/provider – a provider's job completion (signature-verified; the raw body is what is signed)
export const POST = withGateway({ auth: "none" }, async ({ req, ctx }) => json(await handleProviderWebhook(ctx.db, req)));
