import { skillGenerationOperations } from "@/lib/http/contracts/skill-generation";
import { checkCallbackUrl, idempotencyOf, servedByHeaders, skillQueued, skillResult, startGeneration } from "@/lib/generation";
import { DomainError, isDomainError } from "@/lib/core/errors";
import { withSkill } from "@/lib/http/handler";
import { json } from "@/lib/http/json";
import { skillTierLimit } from "@/lib/rate-limit/tiers";
import { otherMethodsOf } from "@/lib/http/unknown-route";

// POST /api/v1/generate – generate: sync → 200 GenerationResult, else 202 GenerationQueued (optional Idempotency-Key)
export const POST = withSkill(
  skillGenerationOperations.skillGenerate,
  async ({ req, ctx, body }) => {
    const idempotency = idempotencyOf(req, ctx.principal, { operation: "generate", modelId: body.model, body });
    const webhookUrl = await checkCallbackUrl(body.webhook_url, ["webhook_url"]);
    const mode = body.sync ? "sync" : "queue";
    const row = await startGeneration(ctx, {
      modelId: body.model,
      input: body.input,
      surface: "skill",
      mode,
      operation: "generate",
      webhookUrl,
      idempotency,
      signal: req.signal,
      providers: body.provider,
    }).catch(unknownModelIsInvalid);
    const headers = servedByHeaders(row);
    return body.sync ? json(skillResult(row), { headers }) : json(skillQueued(row), { status: 202, headers });
  },
  { rateLimit: [skillTierLimit] },
);

/** The skill surface lists 400/402/429 for generate: an unknown `model` is a bad parameter, not a missing resource. */
function unknownModelIsInvalid(err: unknown): never {
  if (!isDomainError(err) || err.code !== "unknown_model") throw err;
  throw new DomainError("invalid_body", `model: ${err.message}`, { issues: [{ path: ["model"], message: err.message }] });
}

// Any other method – 405 method_not_allowed with Allow; OPTIONS – 204 with Allow
export const { GET, PUT, PATCH, DELETE, HEAD, OPTIONS } = otherMethodsOf({ POST });
