import { env } from "@/lib/core/env";
import { agentOperations } from "@/lib/http/contracts/agents";
import { withGateway } from "@/lib/http/handler";
import { parseModelPath } from "@/lib/http/model-path";
import { otherMethodsOf } from "@/lib/http/unknown-route";
import { modelLlmsTxt } from "@/lib/site/llms/model";
import { markdownText } from "@/lib/site/llms/response";

// GET /catalog/{modelId}/llms.txt (proxy.ts rewrites it here) – one model for language models: price, input, example calls
export const GET = withGateway(
  agentOperations.getModelLlmsTxt,
  async ({ ctx, params }) => markdownText(await modelLlmsTxt(ctx.db, parseModelPath(params.modelId, []).modelId, env().APP_URL)),
  { raw: ["params"] },
);

// Any other method – 405 method_not_allowed with Allow; OPTIONS – 204 with Allow
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethodsOf({ GET });
