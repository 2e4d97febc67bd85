import { assertUserExists } from "@/lib/admin/users/get-user";
import { userIdParams } from "@/lib/api/contracts/admin-users";
import { withGateway } from "@/lib/http/handler";
import { json } from "@/lib/http/json";
import { keysOf } from "@/lib/keys/list-keys";
import { gatewayOtherMethods } from "@/lib/http/unknown-route";

// GET /admin/users/{id}/keys – a user's API keys
export const GET = withGateway({ auth: "admin", params: userIdParams }, async ({ ctx, params }) => {
  await assertUserExists(ctx.db, params.id);
  return json({ keys: await keysOf(ctx.db, params.id) });
});

// Any other method – 405 method_not_allowed with Allow; OPTIONS – 204 with Allow
export const { POST, PUT, PATCH, DELETE, OPTIONS } = gatewayOtherMethods("GET");
