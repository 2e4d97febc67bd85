import { adminMoneyOperations } from "@/lib/http/contracts/admin-money";
import { userUsage } from "@/lib/admin/credits/user-money";
import { withGateway } from "@/lib/http/handler";
import { json } from "@/lib/http/json";
import { otherMethodsOf } from "@/lib/http/unknown-route";

// GET /admin/users/{id}/usage – a user's spend per window
export const GET = withGateway(adminMoneyOperations.adminGetUserUsage, async ({ ctx, params, query }) =>
  json(await userUsage(ctx.db, params.id, query.windows)),
);

// Any other method – 405 method_not_allowed with Allow; OPTIONS – 204 with Allow
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethodsOf({ GET });
