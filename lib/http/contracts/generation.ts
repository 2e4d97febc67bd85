import { z } from "zod";
import { generationStatuses } from "@/db/schema/generations";
import { idempotencyHeaders } from "@/lib/generation";
import { providerHeader } from "../generation/provider-preferences";
import { activityRecordSchema } from "./assets";
import { booleanQuery, limitQuery, modelPathParams, offsetQuery } from "./models";
import { defineOperations } from "./operation";
import { RESUME, sse, streamDone, streamHeaders, streamQuery } from "./streams";

// For the other generation-creating contracts (skill, fal, integrations).
export { idempotencyHeaders };

// ---- requests --------------------------------------------------------------------------------
export const modelInputBody = z.record(z.string(), z.unknown()).meta({
  id: "GenerationInput",
  description: "The model input; validated against the model card's schema.input",
  examples: [{ prompt: "a lighthouse on a cliff at dawn, oil painting", image_size: "landscape_4_3", num_images: 1, seed: 42 }],
});

export const runQuery = z.object({
  passthrough: booleanQuery.default(false).meta({ description: "Return the provider's own links (expire in about 24 h) and copy nothing" }),
});
export const queueSubmitQuery = z.object({
  webhook: z.url().max(2048).optional().meta({ description: "Completion callback URL (public http(s)), signed per Standard Webhooks" }),
});
export const resultQuery = z.object({ passthrough: booleanQuery.default(false) });
export const statusQuery = z.object({ logs: booleanQuery.default(false).meta({ description: "Include the runner's logs" }) });

export const requestPathParams = modelPathParams.extend({ requestId: z.uuid() });

export const activityQuery = z.object({
  limit: limitQuery,
  offset: offsetQuery,
  modelId: z.string().max(256).optional(),
  apiKeyId: z.string().max(128).optional(),
  operation: z.enum(["run", "queue", "generate", "integration", "upload"]).optional(),
  status: z.enum(["completed", "failed", "cancelled"]).optional(),
});

// ---- responses -------------------------------------------------------------------------------
const status = z.enum(generationStatuses);
const fileObject = z.looseObject({
  url: z.string(),
  content_type: z.string().optional(),
  width: z.int().optional(),
  height: z.int().optional(),
  file_size: z.int().optional(),
});

/** Who served the job and what was tried first (lib/generation/present.ts servedBy). */
export const servedBySchema = z
  .object({
    provider: z.string().meta({ description: "The provider serving the job (or that served it)" }),
    attempts: z.array(z.object({ provider: z.string(), outcome: z.string(), reason: z.string().optional() })).meta({
      description:
        "Every provider the job went to, in order: those left before it started there (`refused`, `not_started`, `skipped`, with a reason), then the one serving it (`served`, `failed`, `cancelled`, `accepted` or `pending`)",
    }),
  })
  .meta({
    id: "ServedBy",
    examples: [
      {
        provider: "replicate",
        attempts: [
          { provider: "fal", outcome: "refused", reason: "unavailable" },
          { provider: "replicate", outcome: "served" },
        ],
      },
    ],
  });

/** The request headers of an operation that creates a job. */
export const generationHeaders = idempotencyHeaders.extend(providerHeader.shape);

export const gatewayResult = z
  .looseObject({
    request_id: z.string(),
    images: z.array(fileObject).optional(),
    video: fileObject.optional(),
    audio: fileObject.extend({ duration: z.number().optional() }).optional(),
    seed: z.int().optional(),
    served_by: servedBySchema.optional(),
  })
  .meta({
    id: "GenerationGatewayResult",
    description: "The model's output (images, video, audio, text…) with `request_id`",
    examples: [
      {
        request_id: "0b9f3c1e-6a2d-4f47-9a41-2c8e5d7b1a90",
        images: [
          {
            url: "https://gateway.example.com/files/r/0b9f3c1e-6a2d-4f47-9a41-2c8e5d7b1a90/0.jpg",
            content_type: "image/jpeg",
            width: 1024,
            height: 768,
          },
        ],
        seed: 42,
      },
    ],
  });

const queueLinks = {
  response_url: z.string().meta({ description: "GET the result here" }),
  status_url: z.string(),
  cancel_url: z.string(),
};

export const queueSubmitted = z
  .object({
    requestId: z.string(),
    request_id: z.string().meta({ description: "The same id, as fal's clients read it" }),
    status,
    queuePosition: z.int().optional(),
    ...queueLinks,
  })
  .meta({
    id: "QueueSubmitted",
    examples: [
      {
        requestId: "0b9f3c1e-6a2d-4f47-9a41-2c8e5d7b1a90",
        request_id: "0b9f3c1e-6a2d-4f47-9a41-2c8e5d7b1a90",
        status: "queued",
        queuePosition: 0,
        response_url: "https://gateway.example.com/queue/fal-ai/flux/dev/requests/0b9f3c1e-6a2d-4f47-9a41-2c8e5d7b1a90",
        status_url: "https://gateway.example.com/queue/fal-ai/flux/dev/requests/0b9f3c1e-6a2d-4f47-9a41-2c8e5d7b1a90/status",
        cancel_url: "https://gateway.example.com/queue/fal-ai/flux/dev/requests/0b9f3c1e-6a2d-4f47-9a41-2c8e5d7b1a90/cancel",
      },
    ],
  });

export const statusResponse = z
  .object({
    status,
    request_id: z.string(),
    queue_position: z.int().optional(),
    error: z.string().optional().meta({ description: "The error code of a failed job" }),
    logs: z.array(z.object({ message: z.string(), timestamp: z.string() })).optional(),
    ...queueLinks,
    served_by: servedBySchema.optional(),
  })
  .meta({
    id: "GenerationStatus",
    examples: [
      {
        status: "in_progress",
        request_id: "0b9f3c1e-6a2d-4f47-9a41-2c8e5d7b1a90",
        logs: [{ message: "Step 2/4", timestamp: "2026-11-28T10:15:03.120Z" }],
        response_url: "https://gateway.example.com/queue/fal-ai/flux/dev/requests/0b9f3c1e-6a2d-4f47-9a41-2c8e5d7b1a90",
        status_url: "https://gateway.example.com/queue/fal-ai/flux/dev/requests/0b9f3c1e-6a2d-4f47-9a41-2c8e5d7b1a90/status",
        cancel_url: "https://gateway.example.com/queue/fal-ai/flux/dev/requests/0b9f3c1e-6a2d-4f47-9a41-2c8e5d7b1a90/cancel",
      },
    ],
  });

export const cancelResponse = z
  .object({ ok: z.boolean(), status })
  .meta({ id: "CancelResult", examples: [{ ok: true, status: "cancelled" }] });

/** A listed record, with its first stored output for a thumbnail (the service's own extension). */
const activityListItem = activityRecordSchema
  .extend({
    preview: z
      .object({ url: z.string(), contentType: z.string().nullable() })
      .nullable()
      .meta({ description: "The service's own extension: the record's first stored output (an image first), or null" }),
  })
  .meta({ id: "ActivityListItem" });
export const activityList = z
  .object({ items: z.array(activityListItem), total: z.int(), limit: z.int(), offset: z.int() })
  .meta({ id: "ActivityList" });

/** What a generation may answer with (the skill surface's /generate too). */
export const runErrors = [
  "invalid_body",
  "invalid_params",
  "idempotency_key_reused",
  "unknown_model",
  "insufficient_balance",
  "key_limit_exceeded",
  "rate_limited",
  "generation_failed",
  "provider_error",
] as const;

/** A sync run while the provider's circuit is open: 503 provider_error with Retry-After, nothing charged. */
export const circuitOpen = { code: "provider_error", status: 503 } as const;

export const generationOperations = defineOperations([
  {
    method: "post",
    path: "/run/{modelId}",
    operationId: "runModel",
    summary: "Run a model and wait for the result",
    description:
      "Validates the input (400 before any charge), reserves the quote (402 insufficient_balance), runs the model and settles the real cost. " +
      "Failures are refunded. After RUN_SYNC_TIMEOUT_MS (5 min) the answer is 504 `timeout` carrying `requestId`; the job goes on and is fetched through /queue. " +
      "503 provider_error with Retry-After while the provider's circuit is open (nothing charged).",
    tags: ["Generation"],
    surface: "gateway",
    auth: "key",
    params: modelPathParams,
    query: runQuery,
    headers: generationHeaders,
    body: modelInputBody,
    responses: { 200: { description: "The result", schema: gatewayResult } },
    errors: [...runErrors, circuitOpen, "timeout"],
  },
  {
    method: "post",
    path: "/queue/{modelId}",
    operationId: "queueModel",
    summary: "Queue a model run",
    description:
      "Reserves the quote and queues the job. `webhook` gets a signed completion callback (Standard Webhooks, your webhook secret).",
    tags: ["Generation"],
    surface: "gateway",
    auth: "key",
    params: modelPathParams,
    query: queueSubmitQuery,
    headers: generationHeaders,
    body: modelInputBody,
    responses: { 200: { description: "Queued", schema: queueSubmitted } },
    errors: [...runErrors, "invalid_query"],
  },
  {
    method: "get",
    path: "/queue/{modelId}/requests/{requestId}",
    operationId: "getQueuedResult",
    summary: "The result of a queued job",
    description:
      "202 with the status body while unfinished. A failed job answers its error code (generation_failed, provider_error) with `status: failed`.",
    tags: ["Generation"],
    surface: "gateway",
    auth: "key",
    params: requestPathParams,
    query: resultQuery,
    responses: {
      200: { description: "The result; a cancelled job's status body", schema: z.union([gatewayResult, statusResponse]) },
      202: { description: "Not finished yet: the status body", schema: statusResponse },
    },
    errors: ["not_found", "generation_failed", "provider_error"],
  },
  {
    method: "get",
    path: "/queue/{modelId}/requests/{requestId}/status",
    operationId: "getQueuedStatus",
    summary: "The status of a job",
    description: "Statuses: queued → in_progress → completed | failed; queued → cancelled.",
    tags: ["Generation"],
    surface: "gateway",
    auth: "key",
    params: requestPathParams,
    query: statusQuery,
    responses: { 200: { description: "Status", schema: statusResponse } },
    errors: ["not_found"],
  },
  {
    method: "get",
    path: "/queue/{modelId}/requests/{requestId}/status/stream",
    operationId: "streamQueuedStatus",
    summary: "Status as server-sent events",
    description:
      "Event `status` with the status body as of that event, at every change (with `logs`, at every log line too, carrying the logs so far); exactly one final status, then the stream closes." +
      RESUME,
    tags: ["Generation"],
    surface: "gateway",
    auth: "key",
    params: requestPathParams,
    query: statusQuery.extend(streamQuery.shape),
    headers: streamHeaders,
    responses: { 200: sse("`event: status`, `data: <status body>`"), 204: streamDone },
    errors: ["not_found"],
  },
  {
    method: "get",
    path: "/queue/{modelId}/requests/{requestId}/progress/stream",
    operationId: "streamQueuedProgress",
    summary: "Gateway progress as server-sent events",
    description:
      "Event `progress` `{stage, percent?, message?}`; stages queued, submitted, running (once the provider is seen running), storing (when the result is copied), then completed | failed | cancelled." +
      RESUME,
    tags: ["Generation"],
    surface: "gateway",
    auth: "key",
    params: requestPathParams,
    query: streamQuery,
    headers: streamHeaders,
    responses: { 200: sse("`event: progress`"), 204: streamDone },
    errors: ["not_found"],
  },
  {
    method: "put",
    path: "/queue/{modelId}/requests/{requestId}/cancel",
    operationId: "cancelQueued",
    summary: "Cancel a job that has not started running",
    description: "Before it runs: `{ok: true, status: cancelled}` and a full refund. After: `{ok: false, status}`.",
    tags: ["Generation"],
    surface: "gateway",
    auth: "key",
    params: requestPathParams,
    responses: { 200: { description: "Cancel outcome", schema: cancelResponse } },
    errors: ["not_found"],
  },
  {
    method: "get",
    path: "/me/activity",
    operationId: "listActivity",
    summary: "Your generation activity",
    tags: ["Activity"],
    surface: "gateway",
    auth: "key",
    query: activityQuery,
    responses: { 200: { description: "Records, newest first", schema: activityList } },
  },
]);
