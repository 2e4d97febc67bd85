import { meOperations } from "@/lib/http/contracts/me";
import { withGateway } from "@/lib/http/handler";
import { json } from "@/lib/http/json";
import { listSessions } from "@/lib/account/sessions";
import { otherMethodsOf } from "@/lib/http/unknown-route";

// GET /me/sessions – your signed-in browser sessions
export const GET = withGateway(meOperations.listSessions, async ({ ctx }) => json({ sessions: await listSessions(ctx) }));

// Any other method – 405 method_not_allowed with Allow; OPTIONS – 204 with Allow
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethodsOf({ GET });
