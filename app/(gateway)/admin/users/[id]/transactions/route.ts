import { userTransactions } from "@/lib/admin/money/user-money";
import { userIdParams } from "@/lib/api/contracts/admin-users";
import { transactionsQuery } from "@/lib/api/contracts/money";
import { withGateway } from "@/lib/http/handler";
import { json } from "@/lib/http/json";

// GET /admin/users/{id}/transactions – a user's ledger, newest first
export const GET = withGateway({ auth: "admin", params: userIdParams, query: transactionsQuery }, async ({ ctx, params, query }) =>
  json(await userTransactions(ctx.db, params.id, query)),
);
