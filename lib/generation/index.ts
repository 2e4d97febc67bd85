/**
 * The generation engine's public face: everything outside lib/generation (the gateway's /run and
 * /queue, the skill API, fal's protocol, MCP, the partner integrations, the pages and the job
 * functions) imports the engine from here, and nothing else of it (test/layering.test.ts).
 * How a generation flows through the files behind it: docs/engine.md.
 */

// start: validate, quote, reserve, then run inline (sync) or hand to the queue
export { startGeneration } from "./start-generation";
export { generateNow } from "./generate-now";
export { idempotencyHeaders, idempotencyOf, pruneIdempotencyKeys, type Idempotency } from "./idempotency";
export { checkCallbackUrl } from "./callbacks";
export { providerConfigured } from "./routing";

// get and list
export { generationReadFor, getGenerationOrThrow } from "./get-generation";
export { listActivity } from "./list-activity";
export { getActivityDetail } from "./activity/get-activity-detail";
export { getRetryStates, listInFlightRuns, type InFlightRun, type RetryState } from "./activity/get-retry-states";
export { getRunCost, type RunCost } from "./activity/get-run-cost";

// cancel
export { cancelGeneration } from "./cancel-generation";

// follow: the one way to wait for a job, and the event log it reads
export { follow, until, untilEnded } from "./follow";
export { eventsAfter, lastEventAt, logsUpTo, type GenerationEventKind, type StoredGenerationEvent } from "./event-log";
export { logsOf } from "./logs";
export { takeStreamSlot } from "./stream-slots";

// how a job is shown on each surface
export { failureError, gatewayResult, queueUrls, servedBy, servedByHeaders, skillQueued, skillResult, statusBody } from "./present";
export { providerPreferences, type ProviderPreferences } from "./routing";
export { isFinal, type GenerationRow } from "./types";

// the drivers the outside calls into: the queued function's steps, the provider's webhook, the sweeps
export { checkJobStep, collectJobStep, failJob, giveUpJobStep, submitJobStep } from "./job-steps";
export { handleProviderWebhook } from "./provider-webhook";
export { redriveGenerations } from "./redrive";
export { thisRunner } from "./runners";
export { attemptCallbackDelivery, markCallbackFailed } from "./callbacks";
