import type { ModelSchema } from "@/db/schema/models";
import type { ProviderName } from "@/db/schema/routes";
import type { ModelFailedError, ProviderUnavailableError } from "./errors";

/**
 * The provider layer: what the generation engine needs from whoever actually runs a model, in the
 * engine's own words. A provider is one folder implementing `GenerationProvider`: `fal/` (fal's
 * queue API), `replicate/` (Replicate's prediction API), and the built-in simulator
 * (simulators/local-provider, registered at start-up: ./registry.ts). Each translates its own
 * protocol at its edge: statuses, logs, results, cancels, webhooks and errors below are neutral,
 * so the engine never reads a fal or Replicate word (docs/providers.md).
 *
 * Every method either returns or throws a `ProviderError` (./errors): `ProviderUnavailableError`
 * (retryable: network, timeout, 429, 5xx; carries a retry-after hint), `ProviderRejectedError`
 * (final, the provider refused us: credentials, unknown endpoint or request, malformed answer) or
 * `CircuitOpenError` (the provider's breaker is open). A job's own failure is not thrown by
 * `result`: it comes back as `{ ok: false, error }`.
 */
export { providerNames } from "@/db/schema/routes";
export type { ProviderName };

export type SubmitRequest = {
  /**
   * The provider's id of the model (the catalog's `alias`): fal's endpoint id (`fal-ai/flux/dev`,
   * may carry a subpath), Replicate's `owner/name` or `owner/name:version`.
   */
  endpointId: string;
  /** The model input, already validated against the model's input schema. */
  input: Record<string, unknown>;
  /** Where the provider POSTs its completion webhook (the engine's /webhooks/provider). */
  webhookUrl?: string;
  /**
   * The caller waits for the result inline (a sync run): a provider that can hold the submit open
   * until the job ends (Replicate's `Prefer: wait`) may do so, saving the polls of a short job.
   */
  wait?: boolean;
  /**
   * The job must start within this many milliseconds of the submit, or the provider drops it
   * unstarted and unbilled (Replicate's `Cancel-After`, fal's `X-Fal-Request-Timeout`): its
   * status then reads `expired` and its result a `ProviderUnavailableError` with reason
   * `start_deadline`, and the engine moves the job to its next route. Unset: no deadline.
   */
  startDeadlineMs?: number;
  /**
   * How often the client may retry a refused submit itself; unset: as configured. The engine says
   * 0 when another route can take the job, so a refusal moves it on at once (one retry loop).
   */
  retries?: number;
  /** The engine's generation request id: correlation in logs and in the simulator's records. */
  requestId: string;
  /** The catalog category (`text-to-image`, …). The simulator picks the kind of media by it; fal ignores it. */
  category?: string;
  signal?: AbortSignal;
};

export type SubmitResult = {
  /** The provider's id for this request; keep it with the endpoint id (see ProviderRequestRef). */
  providerRequestId: string;
  /** Requests ahead of this one, when the provider says. */
  queuePosition: number | null;
};

/**
 * Status, result and cancel address a request by the endpoint it was submitted to plus the
 * provider's id (fal drops the endpoint's subpath for these calls; its client does that).
 */
export type ProviderRequestRef = { endpointId: string; providerRequestId: string };

export type ProviderLogLevel = "debug" | "info" | "warn" | "error";
export type ProviderLog = { message: string; level: ProviderLogLevel; timestamp: string };

/**
 * Where a job stands at its provider: `queued` (accepted, not started: waiting for a runner or
 * booting one), `running`, or ended: `succeeded`, `failed` (the model's own failure), `cancelled`
 * (stopped by a cancel, ours or the operator's) or `expired` (not started before the start
 * deadline, so it never ran: Replicate's `aborted`).
 */
export type ProviderJobState = "queued" | "running" | "succeeded" | "failed" | "cancelled" | "expired";
export type ProviderEndState = Extract<ProviderJobState, "succeeded" | "failed" | "cancelled" | "expired">;
export const PROVIDER_END_STATES: readonly ProviderEndState[] = ["succeeded", "failed", "cancelled", "expired"];
export const isEndState = (state: ProviderJobState): state is ProviderEndState =>
  (PROVIDER_END_STATES as readonly string[]).includes(state);

/**
 * A job's status at its provider. An ended status says how it ended as far as the status call
 * tells (fal's says only "completed", so a fal job without an error reads `succeeded`): `result`
 * is what the engine trusts. `error`/`errorType` are set when the provider already says it failed.
 */
export type ProviderStatus =
  | { status: "queued"; queuePosition: number | null; logs: ProviderLog[] }
  | { status: "running"; logs: ProviderLog[] }
  | {
      status: ProviderEndState;
      logs: ProviderLog[];
      /** Model run time in milliseconds, when reported. */
      inferenceTimeMs: number | null;
      error: string | null;
      errorType: string | null;
    };

export type StatusOptions = { logs?: boolean; signal?: AbortSignal };

/**
 * The output in the spec's result shapes (`images[]`, `video`, `audio`, `text`, …, with the
 * provider's URLs inside: the engine re-hosts them), or how the job ended without one: the model's
 * failure or a cancel as a `ModelFailedError` (a cancel's `errorType` is `CANCELLED_ERROR_TYPE`),
 * a job that expired before starting as a `ProviderUnavailableError` (reason `start_deadline`).
 */
export type ProviderResult =
  { ok: true; output: Record<string, unknown> } | { ok: false; error: ModelFailedError | ProviderUnavailableError };

/**
 * `cancelled`: removed from the queue, it will not run. `cancel_requested`: it was running; the
 * runner was told to stop (it may still complete). `already_ended` / `not_found`: nothing to cancel.
 */
export type CancelResult = { status: "cancelled" | "cancel_requested" | "already_ended" | "not_found" };

/** A price as the provider states it (fal: USD per unit). Decimal string, never a float. */
export type ProviderPrice = { unitPrice: string; unit: string; currency: string };

export type ProviderModel = {
  endpointId: string;
  displayName: string;
  category: string;
  description: string;
  status: "active" | "deprecated";
  tags: string[];
  thumbnailUrl: string | null;
  licenseType: string | null;
  /** Null when the provider publishes no price for it (or we may not read prices). */
  price: ProviderPrice | null;
};

export type ListModelsOptions = {
  /** Opaque cursor from the previous page. */
  cursor?: string | null;
  /** Page size, 1–50 (fal's pricing call takes at most 50 ids). */
  limit?: number;
  category?: string;
  /** Free-text search. */
  query?: string;
  /** Only these endpoints (1–50). */
  endpointIds?: string[];
  /** Only active (or only deprecated) models; both when unset. */
  status?: "active" | "deprecated";
  signal?: AbortSignal;
};

export type ModelListPage = { models: ProviderModel[]; nextCursor: string | null };

/** How a job ended, as its provider's webhook says. */
export type ProviderWebhookOutcome =
  | { kind: "completed"; output: Record<string, unknown> }
  | { kind: "failed"; error: ModelFailedError | ProviderUnavailableError }
  /** The provider ended it but did not send the output: fetch it with `result()`. */
  | { kind: "fetch_result"; reason: string };

/** A verified provider webhook in the engine's words. */
export type ProviderWebhookEvent = {
  provider: ProviderName;
  /** The id `submit` returned: find the job by (provider, providerRequestId). */
  providerRequestId: string;
  outcome: ProviderWebhookOutcome;
  /** The body as the provider sent it (kept with the inbound event). */
  body: Record<string, unknown>;
};

export type MediaBytes = { bytes: Uint8Array; contentType: string };

export type { ModelSchema };

export interface GenerationProvider {
  readonly name: ProviderName;
  /**
   * The client already retries its transient failures (429/5xx, network) with backoff, so the
   * engine adds no retries of its own: retries at two layers multiply (fal: 4 × 3 attempts).
   */
  readonly retriesTransientFailures: boolean;
  /**
   * Whether the provider's completion webhook can reach `webhookUrl` (fal's cloud cannot call a
   * gateway on a private network): a queue run that expects one checks the status rarely.
   */
  callsBackTo(webhookUrl: string): boolean;
  /** Queues a request. Never retried after the provider accepted it (no duplicate runs). */
  submit(request: SubmitRequest): Promise<SubmitResult>;
  /** Queue state; with `logs: true` the runner's logs so far. */
  status(ref: ProviderRequestRef, options?: StatusOptions): Promise<ProviderStatus>;
  /** The outcome of an ended request. Before it ends it throws a retryable `not_ready` error. */
  result(ref: ProviderRequestRef, options?: { signal?: AbortSignal }): Promise<ProviderResult>;
  cancel(ref: ProviderRequestRef, options?: { signal?: AbortSignal }): Promise<CancelResult>;
  /** JSON Schemas of a model's input and output (self-contained: `$ref`s point into `$defs`). */
  schema(endpointId: string, options?: { signal?: AbortSignal }): Promise<ModelSchema>;
  /** One page of the provider's catalog, with prices. */
  listModels(options?: ListModelsOptions): Promise<ModelListPage>;
  /**
   * The bytes behind a media URL this provider issued, read in-process (the simulator renders
   * them); null for URLs it does not serve, which re-hosting then downloads over the network.
   */
  fetchMedia(url: string): Promise<MediaBytes | null>;
}
