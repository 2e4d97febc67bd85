import { generationOperations } from "@/lib/http/contracts/generation";
import { idempotencyOf, gatewayResult, servedByHeaders, startGeneration } from "@/lib/generation";
import { providerPreferencesOf } from "@/lib/http/generation/provider-preferences";
import { withGateway } from "@/lib/http/handler";
import { json } from "@/lib/http/json";
import { parseModelPath } from "@/lib/http/model-path";
import { userGenerationLimit } from "@/lib/rate-limit/rules";
import { otherMethodsOf } from "@/lib/http/unknown-route";

// POST /run/{modelId} – run a model and wait for the result (optional Idempotency-Key)
export const POST = withGateway(
  generationOperations.runModel,
  async ({ req, ctx, params, body, query }) => {
    const { modelId } = parseModelPath(params.path, []);
    const idempotency = idempotencyOf(req, ctx.principal, { operation: "run", modelId, body, options: { passthrough: query.passthrough } });
    const row = await startGeneration(ctx, {
      modelId,
      input: body,
      surface: "gateway",
      mode: "sync",
      operation: "run",
      passthrough: query.passthrough,
      timing: req,
      idempotency,
      signal: req.signal,
      providers: providerPreferencesOf(req),
    });
    return json(gatewayResult(row, query.passthrough), { headers: servedByHeaders(row) });
  },
  { raw: ["params"], rateLimit: [userGenerationLimit], serverTiming: true },
);

// Any other method – 405 method_not_allowed with Allow; OPTIONS – 204 with Allow
export const { GET, PUT, PATCH, DELETE, HEAD, OPTIONS } = otherMethodsOf({ POST });
