import { userUsage } from "@/lib/admin/money/user-money";
import { userIdParams } from "@/lib/api/contracts/admin-users";
import { usageQuery } from "@/lib/api/contracts/money";
import { withGateway } from "@/lib/http/handler";
import { json } from "@/lib/http/json";

// GET /admin/users/{id}/usage – a user's spend per window
export const GET = withGateway({ auth: "admin", params: userIdParams, query: usageQuery }, async ({ ctx, params, query }) =>
  json(await userUsage(ctx.db, params.id, query.windows)),
);
