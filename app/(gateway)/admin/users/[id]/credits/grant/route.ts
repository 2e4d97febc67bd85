import { adminGrantCredits } from "@/lib/admin/credits/adjust-credits";
import { adminMoneyOperations } from "@/lib/http/contracts/admin-money";
import { withGateway } from "@/lib/http/handler";
import { json } from "@/lib/http/json";
import { otherMethodsOf } from "@/lib/http/unknown-route";

// POST /admin/users/{id}/credits/grant – add credits to a user's balance
export const POST = withGateway(adminMoneyOperations.adminGrantCredits, async ({ ctx, params, body }) =>
  json(await adminGrantCredits(ctx.db, { adminId: ctx.principal.userId, userId: params.id, ...body }), { status: 201 }),
);

// Any other method – 405 method_not_allowed with Allow; OPTIONS – 204 with Allow
export const { GET, PUT, PATCH, DELETE, HEAD, OPTIONS } = otherMethodsOf({ POST });
