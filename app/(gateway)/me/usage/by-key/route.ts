import { usageByQuery } from "@/lib/api/contracts/money";
import { withGateway } from "@/lib/http/handler";
import { json } from "@/lib/http/json";
import { usageByKey } from "@/lib/usage/by-key";

// GET /me/usage/by-key – spend per API key over a window
export const GET = withGateway({ query: usageByQuery }, async ({ ctx, query }) => json(await usageByKey(ctx.db, ctx.principal.userId, query.window)));
