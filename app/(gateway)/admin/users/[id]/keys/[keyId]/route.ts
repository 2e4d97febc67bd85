import { tuneUserKey } from "@/lib/admin/users/user-keys";
import { adminUserOperations } from "@/lib/http/contracts/admin-users";
import { withGateway } from "@/lib/http/handler";
import { json, noContent } from "@/lib/http/json";
import { deleteKeyOf } from "@/lib/account/keys/delete-key";
import { otherMethodsOf } from "@/lib/http/unknown-route";

// PATCH /admin/users/{id}/keys/{keyId} – tune a user's key (name, cap, enabled, rate limit)
export const PATCH = withGateway(adminUserOperations.adminUpdateUserKey, async ({ ctx, params, body }) =>
  json({ key: await tuneUserKey(ctx.db, params.id, params.keyId, body) }),
);

// DELETE /admin/users/{id}/keys/{keyId} – delete a user's key
export const DELETE = withGateway(adminUserOperations.adminDeleteUserKey, async ({ ctx, params }) => {
  await deleteKeyOf(ctx.db, params.id, params.keyId);
  return noContent();
});

// Any other method – 405 method_not_allowed with Allow; OPTIONS – 204 with Allow
export const { GET, POST, PUT, HEAD, OPTIONS } = otherMethodsOf({ PATCH, DELETE });
