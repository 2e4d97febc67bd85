import { gatewayBalance } from "@/lib/balance/gateway-balance";
import { withGateway } from "@/lib/http/handler";
import { json } from "@/lib/http/json";

// GET /me/balance – your balance in credits
export const GET = withGateway({}, async ({ ctx }) => json(await gatewayBalance(ctx.db, ctx.principal.userId)));
