import { moneyOperations } from "@/lib/http/contracts/money";
import { withGateway } from "@/lib/http/handler";
import { json } from "@/lib/http/json";
import { usageHistory } from "@/lib/billing/usage/history";
import { resolveHistoryRange } from "@/lib/billing/usage/history-range";
import { otherMethodsOf } from "@/lib/http/unknown-route";

// GET /me/usage/history – spend over time in UTC buckets
export const GET = withGateway(moneyOperations.getUsageHistory, async ({ ctx, query }) =>
  json(await usageHistory(ctx, resolveHistoryRange(query))),
);

// Any other method – 405 method_not_allowed with Allow; OPTIONS – 204 with Allow
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethodsOf({ GET });
