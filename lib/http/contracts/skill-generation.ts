import { z } from "zod";
import { providerPreferences } from "@/lib/generation";
import { circuitOpen, idempotencyHeaders, runErrors, servedBySchema } from "./generation";
import { defineOperations } from "./operation";
import { RESUME, sse, streamDone, streamHeaders, streamQuery } from "./streams";

// The skill surface's generations (/api/v1/generate, /api/v1/requests/{requestId}).
export const skillRequestParams = z.object({ requestId: z.string().min(1).max(64) });

// In place, not a component: a generated client must not be made to send `sync` (see createKeyBody).
export const skillGenerateBody = z.object({
  model: z.string().min(1).max(256),
  input: z.record(z.string(), z.unknown()),
  sync: z.boolean().default(false),
  webhook_url: z.url().max(2048).optional(),
  provider: providerPreferences.optional().meta({
    description: "Steers the providers of this job (OpenRouter's provider routing): order, only, ignore, allow_fallbacks",
  }),
});

export const skillGenerationResult = z
  .object({
    id: z.string(),
    status: z.enum(["queued", "in_progress", "completed", "failed"]),
    model: z.string(),
    output: z.record(z.string(), z.unknown()).optional(),
    processing_time_ms: z.int().optional(),
    cost_rub: z.number(),
    error: z.string().optional(),
    served_by: servedBySchema.optional(),
  })
  .meta({ id: "GenerationResult" });

export const skillGenerationQueued = z
  .object({ id: z.string(), status: z.literal("queued"), model: z.string(), poll_url: z.string(), stream_url: z.string() })
  .meta({ id: "GenerationQueued" });

export const skillGenerationOperations = defineOperations([
  {
    method: "post",
    path: "/api/v1/generate",
    operationId: "skillGenerate",
    summary: "Generate (sync or queued)",
    tags: ["Skill"],
    surface: "skill",
    auth: "key",
    headers: idempotencyHeaders,
    body: skillGenerateBody,
    responses: {
      200: { description: "sync: the GenerationResult", schema: skillGenerationResult },
      202: { description: "queued", schema: skillGenerationQueued },
    },
    // An unknown `model` is 400 INVALID_PARAMS here (the operation lists 400, 402, 429), never 404.
    errors: [...runErrors.filter((code) => code !== "unknown_model"), circuitOpen, "timeout"],
  },
  {
    method: "get",
    path: "/api/v1/requests/{requestId}",
    operationId: "skillGetRequest",
    summary: "A generation's state and result",
    tags: ["Skill"],
    surface: "skill",
    auth: "key",
    params: skillRequestParams,
    responses: { 200: { description: "GenerationResult", schema: skillGenerationResult } },
    errors: ["not_found"],
  },
  {
    method: "get",
    path: "/api/v1/requests/{requestId}/stream",
    operationId: "skillStreamRequest",
    summary: "A generation's events",
    description:
      "Events `status` `{id,status,queue_position?}`, `log` `{message,timestamp}`, then exactly one of `completed` / `failed` with the GenerationResult; then the stream closes." +
      RESUME,
    tags: ["Skill"],
    surface: "skill",
    auth: "key",
    params: skillRequestParams,
    query: streamQuery,
    headers: streamHeaders,
    responses: { 200: sse("text/event-stream"), 204: streamDone },
    errors: ["not_found"],
  },
]);
