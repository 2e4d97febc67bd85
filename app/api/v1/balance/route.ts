import { moneyOperations } from "@/lib/http/contracts/money";
import { skillBalance } from "@/lib/billing/balance/skill-balance";
import { withSkill } from "@/lib/http/handler";
import { json } from "@/lib/http/json";
import { otherMethodsOf } from "@/lib/http/unknown-route";

// GET /api/v1/balance – balance in rubles, tier and rate limit
export const GET = withSkill(moneyOperations.skillGetBalance, async ({ ctx }) => json(await skillBalance(ctx)));

// Any other method – 405 method_not_allowed with Allow; OPTIONS – 204 with Allow
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethodsOf({ GET });
