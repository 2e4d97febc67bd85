import { generationOperations as ops, resultQuery, statusQuery } from "@/lib/http/contracts/generation";
import { servedByHeaders, checkCallbackUrl, idempotencyOf, startGeneration } from "@/lib/generation";
import { carryQueuedRead, queuedAnswer, readQueuedRequest } from "@/lib/http/generation/queue-requests";
import { DomainError, notFound } from "@/lib/core/errors";
import { providerPreferencesOf } from "@/lib/http/generation/provider-preferences";
import { withGateway } from "@/lib/http/handler";
import { json } from "@/lib/http/json";
import { parseQueuePath } from "@/lib/http/model-path";
import { parseWith, queryObject } from "@/lib/http/request";
import { userGenerationLimit } from "@/lib/rate-limit/rules";
import { otherMethodsOf } from "@/lib/http/unknown-route";

// The reads below share one handler, so their queries are parsed together.
const readQuery = resultQuery.extend(statusQuery.shape);

// POST /queue/{modelId} – queue a model run (optional `webhook` completion callback, Idempotency-Key)
export const POST = withGateway(
  ops.queueModel,
  async ({ req, ctx, params, body, query }) => {
    const path = parseQueuePath(params.path);
    if (path.kind !== "submit")
      throw new DomainError("method_not_allowed", "POST is accepted only on /queue/{modelId}", {}, { Allow: "GET, PUT" });
    const idempotency = idempotencyOf(req, ctx.principal, {
      operation: "queue",
      modelId: path.modelId,
      body,
      options: { webhook: query.webhook ?? null },
    });
    const webhookUrl = await checkCallbackUrl(query.webhook, ["webhook"]);
    const row = await startGeneration(ctx, {
      modelId: path.modelId,
      input: body,
      surface: "gateway",
      mode: "queue",
      operation: "queue",
      webhookUrl,
      idempotency,
      providers: providerPreferencesOf(req),
    });
    return json(queuedAnswer(row), { headers: servedByHeaders(row) });
  },
  { raw: ["params"], rateLimit: [userGenerationLimit] },
);

// GET /queue/{modelId}/requests/{requestId}[/status[/stream]|/progress/stream] – result, status, streams
// A status or result poll reads its job in the statement that counts the key: one round trip.
export const GET = withGateway(
  [ops.getQueuedResult, ops.getQueuedStatus, ops.streamQueuedStatus, ops.streamQueuedProgress],
  async ({ req, url, ctx, params, carried }) => {
    const query = parseWith(readQuery, queryObject(url), "invalid_query");
    const path = parseQueuePath(params.path);
    if (path.kind === "submit" || path.kind === "cancel") throw notFound("Request");
    return readQueuedRequest(ctx, path, query, req, carried);
  },
  { carry: carryQueuedRead },
);

// PUT /queue/{modelId}/requests/{requestId}/cancel – cancel a job that has not started running
export const PUT = withGateway(
  ops.cancelQueued,
  async ({ ctx, params }) => {
    const path = parseQueuePath(params.path);
    if (path.kind !== "cancel") throw notFound("Request");
    return readQueuedRequest(ctx, path, {});
  },
  { raw: ["params"] },
);

// Any other method – 405 method_not_allowed with Allow; OPTIONS – 204 with Allow
export const { PATCH, DELETE, OPTIONS } = otherMethodsOf({ GET, POST, PUT });
