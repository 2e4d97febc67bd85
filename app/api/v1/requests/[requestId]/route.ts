import { skillRequestParams } from "@/lib/api/contracts/generation";
import { getGenerationOrThrow } from "@/lib/generation/get-generation";
import { skillResult } from "@/lib/generation/present";
import { withSkill } from "@/lib/http/handler";
import { json } from "@/lib/http/json";

// GET /api/v1/requests/{requestId} – a generation's state and result
export const GET = withSkill({ auth: "key", params: skillRequestParams }, async ({ ctx, params }) =>
  json(skillResult(await getGenerationOrThrow(ctx, params.requestId))),
);
