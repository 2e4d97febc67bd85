import { meOperations } from "@/lib/http/contracts/me";
import { withGateway } from "@/lib/http/handler";
import { noContent } from "@/lib/http/json";
import { revokeSession } from "@/lib/account/sessions";
import { otherMethodsOf } from "@/lib/http/unknown-route";

// DELETE /me/sessions/{id} – revoke one of your sessions
export const DELETE = withGateway(meOperations.revokeSession, async ({ ctx, params }) => {
  await revokeSession(ctx, params.id);
  return noContent();
});

// Any other method – 405 method_not_allowed with Allow; OPTIONS – 204 with Allow
export const { GET, POST, PUT, PATCH, HEAD, OPTIONS } = otherMethodsOf({ DELETE });
