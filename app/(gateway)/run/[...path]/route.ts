import { modelInputBody, runQuery } from "@/lib/api/contracts/generation";
import { gatewayResult } from "@/lib/generation/present";
import { startGeneration } from "@/lib/generation/start-generation";
import { withGateway } from "@/lib/http/handler";
import { json } from "@/lib/http/json";
import { parseModelPath } from "@/lib/http/model-path";
import { userGenerationLimit } from "@/lib/rate-limit/rules";

// POST /run/{modelId} – run a model and wait for the result
export const POST = withGateway(
  { auth: "key", body: modelInputBody, query: runQuery, rateLimit: [userGenerationLimit], serverTiming: true },
  async ({ req, ctx, params, body, query }) => {
    const { modelId } = parseModelPath(params.path, []);
    const row = await startGeneration(ctx, { modelId, input: body, surface: "gateway", mode: "sync", operation: "run", passthrough: query.passthrough, timing: req });
    return json(gatewayResult(row, query.passthrough));
  },
);
