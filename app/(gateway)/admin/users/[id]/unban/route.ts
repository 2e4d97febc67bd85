import { unbanUser } from "@/lib/admin/users/ban-user";
import { adminUserOperations } from "@/lib/http/contracts/admin-users";
import { withGateway } from "@/lib/http/handler";
import { json } from "@/lib/http/json";
import { otherMethodsOf } from "@/lib/http/unknown-route";

// POST /admin/users/{id}/unban – lift a ban
export const POST = withGateway(adminUserOperations.adminUnbanUser, async ({ ctx, params }) => {
  await unbanUser(ctx, params.id);
  return json({ ok: true });
});

// Any other method – 405 method_not_allowed with Allow; OPTIONS – 204 with Allow
export const { GET, PUT, PATCH, DELETE, HEAD, OPTIONS } = otherMethodsOf({ POST });
