import { keyOperations } from "@/lib/http/contracts/keys";
import { withGateway } from "@/lib/http/handler";
import { json } from "@/lib/http/json";
import { createApiKey } from "@/lib/account/keys/create-key";
import { listKeys } from "@/lib/account/keys/list-keys";
import { otherMethodsOf } from "@/lib/http/unknown-route";

// GET /me/keys – list your API keys (never their values)
export const GET = withGateway(keyOperations.listApiKeys, async ({ ctx }) => json({ keys: await listKeys(ctx) }));

// POST /me/keys – create an API key (dashboard session only); the full key is returned once
export const POST = withGateway(keyOperations.createApiKey, async ({ ctx, body }) =>
  json(await createApiKey(ctx, body), { status: 201, headers: { "Cache-Control": "no-store" } }),
);

// Any other method – 405 method_not_allowed with Allow; OPTIONS – 204 with Allow
export const { PUT, PATCH, DELETE, OPTIONS } = otherMethodsOf({ GET, POST });
