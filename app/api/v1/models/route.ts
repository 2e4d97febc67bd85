import { skillModelOperations } from "@/lib/http/contracts/skill-models";
import { listSkillModels } from "@/lib/catalog/skill";
import { withSkill } from "@/lib/http/handler";
import { json } from "@/lib/http/json";
import { otherMethodsOf } from "@/lib/http/unknown-route";

// GET /api/v1/models – models an agent can call, with prices
export const GET = withSkill(skillModelOperations.skillListModels, async ({ ctx, query }) => json(await listSkillModels(ctx.db, query)));

// Any other method – 405 method_not_allowed with Allow; OPTIONS – 204 with Allow
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethodsOf({ GET });
