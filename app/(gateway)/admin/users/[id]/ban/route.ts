import { banUser } from "@/lib/admin/users/ban-user";
import { banBody, userIdParams } from "@/lib/api/contracts/admin-users";
import { withGateway } from "@/lib/http/handler";
import { json } from "@/lib/http/json";

// POST /admin/users/{id}/ban – ban a user and revoke their sessions
export const POST = withGateway({ auth: "admin", params: userIdParams, body: banBody }, async ({ ctx, params, body }) => {
  await banUser(ctx, params.id, body);
  return json({ ok: true });
});
