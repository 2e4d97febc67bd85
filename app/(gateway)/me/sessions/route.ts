import { withGateway } from "@/lib/http/handler";
import { json } from "@/lib/http/json";
import { listSessions } from "@/lib/me/sessions";

// GET /me/sessions – your signed-in browser sessions
export const GET = withGateway({ auth: "key" }, async ({ ctx }) =>
  json({ sessions: await listSessions(ctx.db, ctx.principal.userId, ctx.principal.sessionId) }),
);
