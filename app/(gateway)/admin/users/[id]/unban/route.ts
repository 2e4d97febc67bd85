import { unbanUser } from "@/lib/admin/users/ban-user";
import { userIdParams } from "@/lib/api/contracts/admin-users";
import { withGateway } from "@/lib/http/handler";
import { json } from "@/lib/http/json";

// POST /admin/users/{id}/unban – lift a ban
export const POST = withGateway({ auth: "admin", params: userIdParams }, async ({ ctx, params }) => {
  await unbanUser(ctx, params.id);
  return json({ ok: true });
});
