import { skillGenerationOperations } from "@/lib/http/contracts/skill-generation";
import { getGenerationOrThrow, servedByHeaders, skillResult } from "@/lib/generation";
import { withSkill } from "@/lib/http/handler";
import { json } from "@/lib/http/json";
import { otherMethodsOf } from "@/lib/http/unknown-route";

// GET /api/v1/requests/{requestId} – a generation's state and result
export const GET = withSkill(skillGenerationOperations.skillGetRequest, async ({ ctx, params }) => {
  const row = await getGenerationOrThrow(ctx, params.requestId);
  return json(skillResult(row), { headers: servedByHeaders(row) });
});

// Any other method – 405 method_not_allowed with Allow; OPTIONS – 204 with Allow
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethodsOf({ GET });
