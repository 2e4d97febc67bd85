import { z } from "zod";
import { circuitOpen, generationHeaders, modelInputBody } from "./generation";
import { defineOperations } from "./operation";

/**
 * fal's protocol (lib/fal-protocol, docs/fal.md): the same engine, ledger and limits as /run and
 * /queue, in fal's wire format, for fal's own clients. Errors are the gateway envelope plus fal's
 * `detail` and `error_type` (422 with `detail: [{loc, msg, type}]` for invalid input and model
 * failures); x-fal-request-id carries the job's id.
 */
const TAGS = ["fal compatibility"];

const falUrls = {
  request_id: z.uuid(),
  response_url: z.url().meta({
    description:
      "Through the proxy: https://queue.fal.run/{owner}/{app}/requests/{id} (the client sends it back through the proxy); under /fal/queue: the gateway's own URL",
  }),
  status_url: z.url(),
  cancel_url: z.url(),
};

const falLog = z.object({ message: z.string(), level: z.literal("INFO"), source: z.literal("USER"), timestamp: z.string() });

export const falSubmittedSchema = z
  .object({ status: z.literal("IN_QUEUE"), gateway_request_id: z.uuid(), queue_position: z.number().int(), ...falUrls })
  .meta({ id: "FalSubmitted" });

export const falStatusSchema = z
  .object({
    status: z.enum(["IN_QUEUE", "IN_PROGRESS", "COMPLETED"]),
    ...falUrls,
    queue_position: z.number().int().optional().meta({ description: "IN_QUEUE only" }),
    logs: z
      .array(falLog)
      .nullable()
      .optional()
      .meta({ description: "IN_PROGRESS and COMPLETED: the runner's logs with `logs=1` (or `true`), else null" }),
    metrics: z.object({ inference_time: z.number().nullable() }).optional().meta({ description: "COMPLETED only (seconds)" }),
    error: z.string().optional().meta({ description: "COMPLETED without a result (failed or cancelled): what happened" }),
    error_type: z.string().optional(),
  })
  .meta({ id: "FalStatus" });

const falOutput = z
  .record(z.string(), z.unknown())
  .meta({ id: "FalOutput", description: "The model's output, as fal answers it (its files re-hosted by the gateway)" });

const falCancel = z.object({ status: z.enum(["OK", "CANCELLATION_REQUESTED"]) }).meta({ id: "FalCancel" });

export const falUploadInitiated = z
  .object({
    upload_url: z.url().meta({ description: "PUT the file's bytes here, once, within an hour (no key needed: the URL is signed)" }),
    file_url: z.url().meta({ description: "The upload's permanent URL; use it as a model input" }),
  })
  .meta({ id: "FalUploadInitiated" });

const falUploadBody = z.object({ content_type: z.string(), file_name: z.string().optional() }).meta({ id: "FalUploadInitiate" });

const falHeaders = generationHeaders.extend({
  "x-fal-queue-priority": z.enum(["low", "normal"]).optional().meta({ description: "Accepted; the gateway has one queue" }),
  "x-fal-runner-hint": z.string().optional().meta({ description: "Accepted and ignored" }),
});

const proxyHeaders = z.object({
  "x-fal-target-url": z.url().meta({
    description:
      "The fal URL the client called: https://fal.run/{model}[/stream], https://queue.fal.run/{model}[/requests/{id}[/status[/stream]|/cancel]] " +
      "or https://rest.fal.ai/storage/upload/initiate. Any other host is 400 (never fetched); other paths on fal's hosts 404.",
  }),
});

const modelParams = z.object({
  modelId: z.string().meta({
    description: "A fal model id, slashes as they are (fal-ai/flux/dev); percent-encoded slashes (fal-ai%2Fflux%2Fdev) work the same",
  }),
});
const requestParams = z.object({
  appId: z.string().meta({ description: "owner/app (fal drops the model's subpath here; the full id works too)" }),
  requestId: z.uuid(),
});
const logsQuery = z.object({ logs: z.enum(["0", "1", "true", "false"]).optional().meta({ description: "Include the runner's logs" }) });
const submitQuery = z.object({
  fal_webhook: z.url().max(2048).optional().meta({
    description:
      "Completion callback in fal's body ({request_id, gateway_request_id, status: OK|ERROR, payload}), signed per Standard Webhooks with your webhook secret",
  }),
});

const sse = (description: string) => ({ description, contentType: "text/event-stream" });
/**
 * Where fal's statuses differ from the gateway's table (lib/fal-protocol/errors.ts, render.ts):
 * invalid input is 422 with fal's `detail`, a failed model 422 too, and a request not in a state
 * for the call (still running, cancelled) 400.
 */
const invalidInput = { code: "invalid_body", status: 422 } as const;
const invalidQuery = { code: "invalid_query", status: 422 } as const;
const modelFailed = { code: "generation_failed", status: 422 } as const;
const wrongState = { code: "conflict", status: 400 } as const;
const genErrors = [
  invalidInput,
  "unknown_model",
  // A model id shorter than owner/app: fal's "Application not found".
  "not_found",
  "insufficient_balance",
  "key_limit_exceeded",
  "rate_limited",
  "generation_failed",
  "provider_error",
  "idempotency_key_reused",
] as const;
const common = { tags: TAGS, surface: "gateway" as const, auth: "key" as const };

export const falOperations = defineOperations([
  {
    method: "post",
    path: "/api/fal/proxy",
    operationId: "falProxyPost",
    summary: "fal proxy protocol (POST): run, stream, queue submit, upload initiate",
    description:
      '@fal-ai/server-proxy\'s protocol, for `createFalClient({credentials: <gateway key>, proxyUrl: {url: "…/api/fal/proxy", when: "always"}})`. ' +
      "The request is answered by the gateway itself as the operation the target names (see /fal/run and /fal/queue), billed to the key. " +
      "`Authorization: Key <key>` (fal's scheme) or Bearer.",
    ...common,
    headers: proxyHeaders.extend(falHeaders.shape),
    body: modelInputBody,
    responses: {
      200: { description: "As the target's operation answers", schema: z.union([falSubmittedSchema, falOutput, falUploadInitiated]) },
    },
    errors: [...genErrors, modelFailed, circuitOpen, "invalid_params", "not_found", "method_not_allowed", "timeout"],
  },
  {
    method: "get",
    path: "/api/fal/proxy",
    operationId: "falProxyGet",
    summary: "fal proxy protocol (GET): queue status, status stream, result",
    ...common,
    headers: proxyHeaders,
    responses: {
      200: { description: "As the target's operation answers", schema: z.union([falStatusSchema, falOutput]) },
      202: { description: "Status while unfinished", schema: falStatusSchema },
    },
    errors: ["invalid_params", "not_found", "method_not_allowed", wrongState, modelFailed],
  },
  {
    method: "put",
    path: "/api/fal/proxy",
    operationId: "falProxyPut",
    summary: "fal proxy protocol (PUT): queue cancel",
    ...common,
    headers: proxyHeaders,
    responses: {
      200: { description: "Cancelled", schema: falCancel },
      202: { description: "Cancellation asked of the provider", schema: falCancel },
    },
    errors: ["invalid_params", "not_found", "method_not_allowed", "conflict", wrongState],
  },
  {
    method: "post",
    path: "/fal/run/{modelId}",
    operationId: "falRun",
    summary: "fal.run: run a model and answer its output (FAL_RUN_HOST=<gateway>/fal/run)",
    description:
      "The output as fal answers it; x-fal-request-id names the job. A model failure is 422 with fal's `detail`. " +
      "Past RUN_SYNC_TIMEOUT_MS: 504 with x-fal-request-timeout-type: user (fal's clients do not retry it; the job goes on).",
    ...common,
    params: modelParams,
    headers: falHeaders,
    body: modelInputBody,
    responses: { 200: { description: "The output", schema: falOutput } },
    errors: [...genErrors, modelFailed, circuitOpen, "timeout"],
  },
  {
    method: "post",
    path: "/fal/run/{modelId}/stream",
    operationId: "falStream",
    summary: "fal.run stream: the output as a server-sent event",
    description:
      "Bare `data:` events as fal sends them (no event names or ids): the output, then the stream closes. A run ending within 5 s is answered " +
      "whole (a failure keeps its status); a longer one opens the stream with keep-alive comments and a failure then is a final `event: error`.",
    ...common,
    params: modelParams,
    body: modelInputBody,
    responses: { 200: sse("`data: <output>`") },
    errors: [...genErrors, modelFailed, circuitOpen],
  },
  {
    method: "post",
    path: "/fal/queue/{modelId}",
    operationId: "falSubmit",
    summary: "fal queue submit (FAL_QUEUE_RUN_HOST=<gateway>/fal/queue)",
    description:
      "IN_QUEUE with the request's URLs (owner/app only, as fal's). `fal_webhook` is checked here (422 naming it) and called back in fal's body.",
    ...common,
    params: modelParams,
    query: submitQuery,
    headers: falHeaders,
    body: modelInputBody,
    responses: { 200: { description: "Queued", schema: falSubmittedSchema } },
    errors: [...genErrors, invalidQuery],
  },
  {
    method: "get",
    path: "/fal/queue/{appId}/requests/{requestId}/status",
    operationId: "falStatus",
    summary: "fal queue status",
    description:
      "IN_QUEUE (queue_position) / IN_PROGRESS / COMPLETED (metrics; a failed or cancelled job carries `error` and `error_type`): 202 while unfinished, 200 once done. " +
      "An unfinished job's poll is held up to FAL_STATUS_HOLD_MS (10 s) until it changes, so polling every 500 ms does not use up the key's limit.",
    ...common,
    params: requestParams,
    query: logsQuery,
    responses: {
      200: { description: "Completed", schema: falStatusSchema },
      202: { description: "Queued or running", schema: falStatusSchema },
    },
    errors: ["not_found"],
  },
  {
    method: "get",
    path: "/fal/queue/{appId}/requests/{requestId}/status/stream",
    operationId: "falStatusStream",
    summary: "fal queue status as server-sent events",
    description: "A bare `data: <status>` event at each change, keep-alive comments every 10 s, closed after COMPLETED.",
    ...common,
    params: requestParams,
    query: logsQuery,
    responses: { 200: sse("`data: <fal status>`") },
    errors: ["not_found", "rate_limited"],
  },
  {
    method: "get",
    path: "/fal/queue/{appId}/requests/{requestId}",
    operationId: "falResult",
    summary: "fal queue result",
    description:
      "The output (x-fal-request-id). Before the end: 400 `detail: Request is still in progress`; a failed job: 422 with `detail`; a cancelled one: 400.",
    ...common,
    params: requestParams,
    responses: { 200: { description: "The output", schema: falOutput } },
    errors: ["not_found", wrongState, modelFailed],
  },
  {
    method: "put",
    path: "/fal/queue/{appId}/requests/{requestId}/cancel",
    operationId: "falCancel",
    summary: "fal queue cancel",
    description:
      "A queued job: 200 `{status: OK}` and a full refund. Already running: 400 `{status: IN_PROGRESS}`; ended: 409 conflict `{status: ALREADY_COMPLETED}`.",
    ...common,
    params: requestParams,
    responses: {
      200: { description: "Cancelled", schema: falCancel },
      202: { description: "Cancellation asked of the provider", schema: falCancel },
    },
    errors: ["not_found", "conflict", wrongState],
  },
  {
    method: "put",
    path: "/fal/storage/upload/{token}",
    operationId: "falUploadPut",
    summary: "fal storage: the upload_url of an initiated upload",
    description:
      "What `fal.storage.upload` PUTs the file to (rest.fal.ai/storage/upload/initiate through the proxy gives the URL). Stored once as your upload; " +
      "bytes of another type than initiated are 415. No key: the URL is signed.",
    tags: TAGS,
    surface: "gateway",
    auth: "none",
    params: z.object({ token: z.string() }),
    body: z.string().meta({ format: "binary" }),
    bodyContentType: "application/octet-stream",
    responses: {
      200: { description: "Stored", schema: z.object({ file_url: z.url(), content_type: z.string(), file_size: z.number().int() }) },
    },
    errors: [
      "not_found",
      "conflict",
      "asset_too_large",
      "unsupported_media_type",
      invalidInput,
      "asset_storage_disabled",
      "storage_unavailable",
    ],
  },
]);

/** The upload initiate body, for the docs: `POST rest.fal.ai/storage/upload/initiate` through the proxy. */
export const falUploadInitiateBody = falUploadBody;
