import { adminMoneyOperations } from "@/lib/http/contracts/admin-money";
import { withGateway } from "@/lib/http/handler";
import { json } from "@/lib/http/json";
import { topUsers } from "@/lib/billing/usage/top-users";
import { otherMethodsOf } from "@/lib/http/unknown-route";

// GET /admin/usage/top-users – the biggest spenders over a window
export const GET = withGateway(adminMoneyOperations.adminTopUsers, async ({ ctx, query }) =>
  json(await topUsers(ctx.db, query.window, query.limit)),
);

// Any other method – 405 method_not_allowed with Allow; OPTIONS – 204 with Allow
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethodsOf({ GET });
