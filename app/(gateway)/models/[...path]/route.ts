import { modelOperations } from "@/lib/http/contracts/models";
import { estimateModel } from "@/lib/catalog/estimate";
import { getModelCard } from "@/lib/catalog/get";
import { DomainError } from "@/lib/core/errors";
import { withGateway } from "@/lib/http/handler";
import { json } from "@/lib/http/json";
import { parseModelPath } from "@/lib/http/model-path";
import { otherMethodsOf } from "@/lib/http/unknown-route";

// GET /models/{modelId} – the model card (schema fetched lazily when never fetched)
export const GET = withGateway(
  modelOperations.getModel,
  async ({ ctx, params }) => json(await getModelCard(ctx.db, parseModelPath(params.path, []).modelId)),
  { raw: ["params"] },
);

// POST /models/{modelId}/estimate – price of a request before running it
export const POST = withGateway(
  modelOperations.estimateModel,
  async ({ ctx, params, body }) => {
    const path = parseModelPath(params.path, ["estimate"]);
    if (path.kind !== "estimate")
      throw new DomainError("method_not_allowed", "POST is accepted only on /models/{modelId}/estimate", {}, { Allow: "GET" });
    return json(await estimateModel(ctx.db, path.modelId, body));
  },
  { raw: ["params"] },
);

// Any other method – 405 method_not_allowed with Allow; OPTIONS – 204 with Allow
export const { PUT, PATCH, DELETE, OPTIONS } = otherMethodsOf({ GET, POST });
