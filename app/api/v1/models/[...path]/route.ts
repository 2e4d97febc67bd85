import { skillModelOperations } from "@/lib/http/contracts/skill-models";
import { getSkillModelSchema } from "@/lib/catalog/skill";
import { notFound } from "@/lib/core/errors";
import { withSkill } from "@/lib/http/handler";
import { json } from "@/lib/http/json";
import { parseModelPath } from "@/lib/http/model-path";
import { otherMethodsOf } from "@/lib/http/unknown-route";

// GET /api/v1/models/{modelId}/schema – the parameters a model accepts
export const GET = withSkill(
  skillModelOperations.skillGetModelSchema,
  async ({ ctx, params, query }) => {
    const path = parseModelPath(params.path, ["schema"]);
    if (path.kind !== "schema") throw notFound("Endpoint");
    return json(await getSkillModelSchema(ctx.db, path.modelId, query));
  },
  { raw: ["params"] },
);

// Any other method – 405 method_not_allowed with Allow; OPTIONS – 204 with Allow
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethodsOf({ GET });
