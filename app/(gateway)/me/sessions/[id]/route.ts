import { sessionIdParams } from "@/lib/api/contracts/me";
import { withGateway } from "@/lib/http/handler";
import { noContent } from "@/lib/http/json";
import { revokeSession } from "@/lib/me/sessions";

// DELETE /me/sessions/{id} – revoke one of your sessions
export const DELETE = withGateway({ auth: "key", params: sessionIdParams }, async ({ ctx, params }) => {
  await revokeSession(ctx.db, ctx.principal.userId, params.id);
  return noContent();
});
