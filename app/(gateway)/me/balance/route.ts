import { moneyOperations } from "@/lib/http/contracts/money";
import { gatewayBalance } from "@/lib/billing/balance/gateway-balance";
import { withGateway } from "@/lib/http/handler";
import { json } from "@/lib/http/json";
import { otherMethodsOf } from "@/lib/http/unknown-route";

// GET /me/balance – your balance in credits
export const GET = withGateway(moneyOperations.getBalance, async ({ ctx }) => json(await gatewayBalance(ctx)));

// Any other method – 405 method_not_allowed with Allow; OPTIONS – 204 with Allow
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethodsOf({ GET });
