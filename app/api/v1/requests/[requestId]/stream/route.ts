import { skillGenerationOperations } from "@/lib/http/contracts/skill-generation";
import { getGenerationOrThrow } from "@/lib/generation";
import { skillStream } from "@/lib/http/generation/streams";
import { withSkill } from "@/lib/http/handler";
import { lastEventIdOf } from "@/lib/http/sse";
import { otherMethodsOf } from "@/lib/http/unknown-route";

// GET /api/v1/requests/{requestId}/stream – status, log, then completed | failed (SSE; Last-Event-ID resumes; 204 once final)
export const GET = withSkill(skillGenerationOperations.skillStreamRequest, async ({ req, ctx, params }) =>
  skillStream(ctx, await getGenerationOrThrow(ctx, params.requestId), lastEventIdOf(req), req.signal),
);

// Any other method – 405 method_not_allowed with Allow; OPTIONS – 204 with Allow
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethodsOf({ GET });
