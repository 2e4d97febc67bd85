import { moneyOperations } from "@/lib/http/contracts/money";
import { withGateway } from "@/lib/http/handler";
import { json } from "@/lib/http/json";
import { usageByKey } from "@/lib/billing/usage/by-key";
import { otherMethodsOf } from "@/lib/http/unknown-route";

// GET /me/usage/by-key – spend per API key over a window
export const GET = withGateway(moneyOperations.getUsageByKey, async ({ ctx, query }) => json(await usageByKey(ctx, query.window)));

// Any other method – 405 method_not_allowed with Allow; OPTIONS – 204 with Allow
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethodsOf({ GET });
