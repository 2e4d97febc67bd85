import { adminClawbackCredits } from "@/lib/billing/admin/adjust-credits";
import { adminCreditsBody } from "@/lib/api/contracts/admin-money";
import { userIdParams } from "@/lib/api/contracts/admin-users";
import { withGateway } from "@/lib/http/handler";
import { json } from "@/lib/http/json";
import { gatewayOtherMethods } from "@/lib/http/unknown-route";

// POST /admin/users/{id}/credits/clawback – take credits back, never below zero
export const POST = withGateway({ auth: "admin", params: userIdParams, body: adminCreditsBody }, async ({ ctx, params, body }) =>
  json(await adminClawbackCredits(ctx.db, { adminId: ctx.principal.userId, userId: params.id, ...body }), { status: 201 }),
);

// Any other method – 405 method_not_allowed with Allow; OPTIONS – 204 with Allow
export const { GET, PUT, PATCH, DELETE, HEAD, OPTIONS } = gatewayOtherMethods("POST");
