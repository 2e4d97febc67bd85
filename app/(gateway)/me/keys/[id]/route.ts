import { keyOperations } from "@/lib/http/contracts/keys";
import { withGateway } from "@/lib/http/handler";
import { json, noContent } from "@/lib/http/json";
import { deleteKey } from "@/lib/account/keys/delete-key";
import { updateApiKey } from "@/lib/account/keys/update-api-key";
import { otherMethodsOf } from "@/lib/http/unknown-route";

// PATCH /me/keys/{id} – rename a key, set its monthly cap or enable/disable it
export const PATCH = withGateway(keyOperations.updateApiKey, async ({ ctx, params, body }) =>
  json(await updateApiKey(ctx, params.id, body)),
);

// DELETE /me/keys/{id} – delete a key
export const DELETE = withGateway(keyOperations.deleteApiKey, async ({ ctx, params }) => {
  await deleteKey(ctx, params.id);
  return noContent();
});

// Any other method – 405 method_not_allowed with Allow; OPTIONS – 204 with Allow
export const { GET, POST, PUT, HEAD, OPTIONS } = otherMethodsOf({ PATCH, DELETE });
