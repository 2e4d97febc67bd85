import { agentOperations } from "@/lib/http/contracts/agents";
import { env } from "@/lib/core/env";
import { withGateway } from "@/lib/http/handler";
import { otherMethodsOf } from "@/lib/http/unknown-route";
import { siteLlmsTxt } from "@/lib/site/llms/site";
import { markdownText } from "@/lib/site/llms/response";

// GET /llms.txt – the service for language models: how to connect, and every visible model with its price
export const GET = withGateway(agentOperations.getLlmsTxt, async ({ ctx }) => markdownText(await siteLlmsTxt(ctx.db, env().APP_URL)));

// Any other method – 405 method_not_allowed with Allow; OPTIONS – 204 with Allow
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethodsOf({ GET });
