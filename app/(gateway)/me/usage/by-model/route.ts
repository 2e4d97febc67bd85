import { moneyOperations } from "@/lib/http/contracts/money";
import { withGateway } from "@/lib/http/handler";
import { json } from "@/lib/http/json";
import { usageByModel } from "@/lib/billing/usage/by-model";
import { otherMethodsOf } from "@/lib/http/unknown-route";

// GET /me/usage/by-model – spend per model over a window
export const GET = withGateway(moneyOperations.getUsageByModel, async ({ ctx, query }) => json(await usageByModel(ctx, query.window)));

// Any other method – 405 method_not_allowed with Allow; OPTIONS – 204 with Allow
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethodsOf({ GET });
