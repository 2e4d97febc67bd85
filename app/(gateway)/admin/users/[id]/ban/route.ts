import { banUser } from "@/lib/admin/users/ban-user";
import { adminUserOperations } from "@/lib/http/contracts/admin-users";
import { withGateway } from "@/lib/http/handler";
import { json } from "@/lib/http/json";
import { otherMethodsOf } from "@/lib/http/unknown-route";

// POST /admin/users/{id}/ban – ban a user and revoke their sessions
export const POST = withGateway(adminUserOperations.adminBanUser, async ({ ctx, params, body }) => {
  await banUser(ctx, params.id, body);
  return json({ ok: true });
});

// Any other method – 405 method_not_allowed with Allow; OPTIONS – 204 with Allow
export const { GET, PUT, PATCH, DELETE, HEAD, OPTIONS } = otherMethodsOf({ POST });
