import { adminMoneyOperations } from "@/lib/http/contracts/admin-money";
import { withGateway } from "@/lib/http/handler";
import { json } from "@/lib/http/json";
import { listTransactions } from "@/lib/billing/ledger/list-transactions";
import { otherMethodsOf } from "@/lib/http/unknown-route";

// GET /admin/transactions – the ledger across users, newest first
export const GET = withGateway(adminMoneyOperations.adminListTransactions, async ({ ctx, query }) =>
  json(await listTransactions(ctx.db, query)),
);

// Any other method – 405 method_not_allowed with Allow; OPTIONS – 204 with Allow
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethodsOf({ GET });
