import { usageQuery } from "@/lib/api/contracts/money";
import { withGateway } from "@/lib/http/handler";
import { json } from "@/lib/http/json";
import { meUsage } from "@/lib/usage/me-usage";

// GET /me/usage – spend per window, by model
export const GET = withGateway({ query: usageQuery }, async ({ ctx, query }) => json(await meUsage(ctx.db, ctx.principal.userId, query.windows)));
