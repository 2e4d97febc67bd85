import { moneyOperations } from "@/lib/http/contracts/money";
import { withGateway } from "@/lib/http/handler";
import { json } from "@/lib/http/json";
import { meUsage } from "@/lib/billing/usage/me-usage";
import { otherMethodsOf } from "@/lib/http/unknown-route";

// GET /me/usage – spend per window, by model
export const GET = withGateway(moneyOperations.getUsage, async ({ ctx, query }) => json(await meUsage(ctx, query.windows)));

// Any other method – 405 method_not_allowed with Allow; OPTIONS – 204 with Allow
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethodsOf({ GET });
