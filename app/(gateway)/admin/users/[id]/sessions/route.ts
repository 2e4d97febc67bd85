import { assertUserExists } from "@/lib/admin/users/get-user";
import { adminUserOperations } from "@/lib/http/contracts/admin-users";
import { withGateway } from "@/lib/http/handler";
import { json, noContent } from "@/lib/http/json";
import { revokeAllSessions, sessionsOf } from "@/lib/account/sessions";
import { otherMethodsOf } from "@/lib/http/unknown-route";

// GET /admin/users/{id}/sessions – a user's live sessions
export const GET = withGateway(adminUserOperations.adminListUserSessions, async ({ ctx, params }) => {
  await assertUserExists(ctx.db, params.id);
  return json({ sessions: await sessionsOf(ctx.db, params.id, ctx.principal.sessionId) });
});

// DELETE /admin/users/{id}/sessions – sign a user out everywhere
export const DELETE = withGateway(adminUserOperations.adminRevokeUserSessions, async ({ ctx, params }) => {
  await assertUserExists(ctx.db, params.id);
  await revokeAllSessions(ctx.db, params.id);
  return noContent();
});

// Any other method – 405 method_not_allowed with Allow; OPTIONS – 204 with Allow
export const { POST, PUT, PATCH, OPTIONS } = otherMethodsOf({ GET, DELETE });
