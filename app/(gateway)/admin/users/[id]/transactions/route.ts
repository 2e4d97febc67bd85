import { adminMoneyOperations } from "@/lib/http/contracts/admin-money";
import { userTransactions } from "@/lib/admin/credits/user-money";
import { withGateway } from "@/lib/http/handler";
import { json } from "@/lib/http/json";
import { otherMethodsOf } from "@/lib/http/unknown-route";

// GET /admin/users/{id}/transactions – a user's ledger, newest first
export const GET = withGateway(adminMoneyOperations.adminListUserTransactions, async ({ ctx, params, query }) =>
  json(await userTransactions(ctx.db, params.id, query)),
);

// Any other method – 405 method_not_allowed with Allow; OPTIONS – 204 with Allow
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethodsOf({ GET });
