import { skillBalance } from "@/lib/balance/skill-balance";
import { withSkill } from "@/lib/http/handler";
import { json } from "@/lib/http/json";

// GET /api/v1/balance – balance in rubles, tier and rate limit
export const GET = withSkill({}, async ({ ctx }) => json(await skillBalance(ctx.db, ctx.principal.userId)));
