import { assertUserExists } from "@/lib/admin/users/get-user";
import { adminUserOperations } from "@/lib/http/contracts/admin-users";
import { withGateway } from "@/lib/http/handler";
import { json } from "@/lib/http/json";
import { keysOf } from "@/lib/account/keys/list-keys";
import { otherMethodsOf } from "@/lib/http/unknown-route";

// GET /admin/users/{id}/keys – a user's API keys
export const GET = withGateway(adminUserOperations.adminListUserKeys, async ({ ctx, params }) => {
  await assertUserExists(ctx.db, params.id);
  return json({ keys: await keysOf(ctx.db, params.id) });
});

// Any other method – 405 method_not_allowed with Allow; OPTIONS – 204 with Allow
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethodsOf({ GET });
