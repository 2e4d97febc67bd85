import { moneyOperations } from "@/lib/http/contracts/money";
import { withGateway } from "@/lib/http/handler";
import { json } from "@/lib/http/json";
import { listTransactions } from "@/lib/billing/ledger/list-transactions";
import { otherMethodsOf } from "@/lib/http/unknown-route";

// GET /me/transactions – your ledger, newest first
export const GET = withGateway(moneyOperations.listTransactions, async ({ ctx, query }) =>
  json(await listTransactions(ctx.db, { ...query, userId: ctx.principal.userId })),
);

// Any other method – 405 method_not_allowed with Allow; OPTIONS – 204 with Allow
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethodsOf({ GET });
