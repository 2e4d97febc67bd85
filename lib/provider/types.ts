import type { ModelSchema } from "@/db/schema/models";
import type { ModelFailedError } from "./errors";

/**
 * The provider layer: what the generation engine needs from whoever actually runs a model. Two
 * implementations: `fal` (fal's queue API over HTTP) and `local` (the built-in simulator used by
 * the embedded default and by sandbox keys, simulators/local-provider, registered at start-up:
 * ./registry.ts). The shapes follow fal's queue protocol, because that
 * is the protocol the engine speaks upstream; see ../../shared/notes/fal.md.
 *
 * Every method either returns or throws a `ProviderError` (./errors): `ProviderUnavailableError`
 * (retryable: network, timeout, 429, 5xx; carries a retry-after hint), `ProviderRejectedError`
 * (final, the provider refused us: credentials, unknown endpoint or request, malformed answer) or
 * `CircuitOpenError` (the provider's breaker is open). A model's own failure is not thrown by
 * `result`: it comes back as `{ ok: false, error: ModelFailedError }`.
 */
export type ProviderName = "local" | "fal";
export const providerNames = ["local", "fal"] as const satisfies readonly ProviderName[];

export type SubmitRequest = {
  /** The provider's endpoint id (the catalog's `alias`), e.g. `fal-ai/flux/dev`; may carry a subpath. */
  endpointId: string;
  /** The model input, already validated against the model's input schema. */
  input: Record<string, unknown>;
  /** Where the provider POSTs its completion webhook (the engine's /webhooks/provider). */
  webhookUrl?: string;
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
 * provider's id (fal drops the endpoint's subpath for these calls; the client does that).
 */
export type ProviderRequestRef = { endpointId: string; providerRequestId: string };

export type ProviderLogLevel = "STDERR" | "STDOUT" | "ERROR" | "INFO" | "WARN" | "DEBUG";
export type ProviderLog = { message: string; level: ProviderLogLevel; timestamp: string };

/**
 * fal has three states only. A failed or cancelled request is also COMPLETED: its error comes from
 * `result` (or the webhook). `error`/`errorType` are set when the provider already says it failed.
 */
export type ProviderStatus =
  | { status: "IN_QUEUE"; queuePosition: number | null; logs: ProviderLog[] }
  | { status: "IN_PROGRESS"; logs: ProviderLog[] }
  | {
      status: "COMPLETED";
      logs: ProviderLog[];
      /** Model run time in milliseconds, when reported. */
      inferenceTimeMs: number | null;
      error: string | null;
      errorType: string | null;
    };

export type StatusOptions = { logs?: boolean; signal?: AbortSignal };

/** The model output (provider URLs inside), or the model's own final error. */
export type ProviderResult = { ok: true; output: Record<string, unknown> } | { ok: false; error: ModelFailedError };

/**
 * `cancelled`: removed from the queue, it will not run. `cancellation_requested`: it was running;
 * the runner was told to stop (it may still complete). `already_completed` / `not_found`: nothing
 * to cancel.
 */
export type CancelResult = { status: "cancelled" | "cancellation_requested" | "already_completed" | "not_found" };

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
  /** The outcome of a COMPLETED request. Before completion it throws a retryable `not_ready` error. */
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
