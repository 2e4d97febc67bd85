import { randomUUID } from "node:crypto";
import { log } from "@/lib/core/logger";
import {
  CANCELLED_ERROR_TYPE,
  describeDetail,
  isProviderRejected,
  ModelFailedError,
  ProviderRejectedError,
  ProviderUnavailableError,
} from "@/lib/provider/errors";
import type {
  CancelResult,
  GenerationProvider,
  ListModelsOptions,
  MediaBytes,
  ModelListPage,
  ModelSchema,
  ProviderLogLevel,
  ProviderRequestRef,
  ProviderResult,
  ProviderStatus,
  StatusOptions,
  SubmitRequest,
  SubmitResult,
} from "@/lib/provider/types";
import { behaviourOf, formatFailure } from "./behaviour";
import { WebhookSender } from "./deliveries";
import { readMediaLink } from "./media-url";
import { listLocalModels, localModelSchema } from "./models";
import { OutputCache } from "./output-cache";
import type { BuiltOutput } from "./outputs";
import type { SimulatorSettings } from "./latency-profile";
import { AttemptCounter, resultRefusal, submitRefusal } from "./simulated-refusals";
import { LocalStore, type Row } from "./store";
import { completesAt, failureOf, isSettled, logsAt, phaseAt, queueMsOf, type SimLogLine } from "./timeline";

const LOG_LEVELS: Record<SimLogLine["level"], ProviderLogLevel> = { INFO: "info", WARN: "warn", ERROR: "error" };

export type LocalProviderOptions = {
  now?: () => number;
  fetch?: typeof fetch;
  /** First retry pause of a failed webhook delivery (default 2 s; then ×3 each time). */
  webhookRetryBaseMs?: number;
  webhookMaxAttempts?: number;
  /** The latency profile and error rate (default: the environment's, read per request). */
  settings?: SimulatorSettings;
  /** The profile's draws (default Math.random; tests pass a seeded one). */
  random?: () => number;
};

const MAX_TRACKED = 10_000;
const RETENTION_MS = 7 * 24 * 60 * 60 * 1000;
const PRUNE_EVERY_MS = 10 * 60 * 1000;

/**
 * The built-in simulator: the embedded default and the sandbox (`_test_` keys). It behaves like a
 * remote queue provider — accepted requests are persisted, progress over time, log, fail on
 * demand (see ./behaviour), complete with real media, and call the webhook — so the engine runs
 * the same code path on it as on fal.
 */
export class LocalProvider implements GenerationProvider {
  readonly name = "local" as const;
  // A simulated remote service, not a client: the engine retries its failures.
  readonly retriesTransientFailures = false;
  private readonly now: () => number;
  private readonly settings: SimulatorSettings | undefined;
  private readonly random: () => number;
  private readonly store = new LocalStore();
  readonly webhooks: WebhookSender;
  // Per-process counters for "fail the first N attempts" markers.
  private submitAttempts = new AttemptCounter(MAX_TRACKED);
  private resultAttempts = new AttemptCounter(MAX_TRACKED);
  private outputs: OutputCache;

  constructor(options: LocalProviderOptions = {}) {
    this.now = options.now ?? Date.now;
    this.settings = options.settings;
    this.random = options.random ?? Math.random;
    this.outputs = new OutputCache({ now: this.now, maxTracked: MAX_TRACKED });
    this.webhooks = new WebhookSender(this.store, (row) => this.webhookBody(row), {
      now: this.now,
      fetch: options.fetch ?? ((...args) => fetch(...args)),
      retryBaseMs: options.webhookRetryBaseMs ?? 2_000,
      maxAttempts: options.webhookMaxAttempts ?? 10,
      timeoutMs: 15_000,
    });
  }

  private pruner: ReturnType<typeof setInterval> | null = null;

  /** Background work of a running server: owed webhooks (resumed now) and retention. */
  start(): void {
    this.webhooks.start();
    if (this.pruner) return;
    this.pruner = setInterval(
      () => void this.prune().catch((err) => log.warn("local provider pruning failed", { error: String(err) })),
      PRUNE_EVERY_MS,
    );
    this.pruner.unref?.();
  }

  stop(): void {
    this.webhooks.stop();
    if (this.pruner) clearInterval(this.pruner);
    this.pruner = null;
  }

  /** Forgets requests older than a week (their links expired long ago); returns how many. */
  async prune(): Promise<number> {
    let total = 0;
    for (let n = -1; n !== 0; total += n) n = await this.store.prune(new Date(this.now() - RETENTION_MS), 1000);
    return total;
  }

  /** Its webhooks leave this process for the gateway's own URL: they arrive whatever the network. */
  callsBackTo(): boolean {
    return true;
  }

  async submit(request: SubmitRequest): Promise<SubmitResult> {
    const behaviour = behaviourOf(request.endpointId, request.input, {
      category: request.category,
      settings: this.settings,
      random: this.random,
    });
    const failure = behaviour.failure;
    if (failure && (failure.mode === "provider" || failure.mode === "rate_limit")) {
      const attempt = this.submitAttempts.next(`${request.requestId}:${request.endpointId}`);
      if (failure.times === null || attempt <= failure.times) throw submitRefusal(failure.mode);
    }
    const kept = failure && failure.mode !== "provider" && failure.mode !== "rate_limit" ? formatFailure(failure) : null;
    const submittedAt = new Date(this.now());
    const row: Row = {
      id: randomUUID(),
      endpointId: request.endpointId,
      clientRequestId: request.requestId,
      input: request.input,
      category: request.category ?? null,
      latencyMs: behaviour.latencyMs,
      failure: kept,
      submittedAt,
      cancelledAt: null,
      webhookUrl: request.webhookUrl ?? null,
      webhookState: "none",
      webhookAttempts: 0,
      webhookNextAt: null,
      webhookLastError: null,
    };
    const end = completesAt(row);
    if (row.webhookUrl && end !== null) {
      row.webhookState = "pending";
      row.webhookNextAt = new Date(end);
    }
    await this.store.insert(row);
    if (row.webhookState === "pending") this.webhooks.schedule(row.id, end!);
    const phase = phaseAt(row, this.now());
    return { providerRequestId: row.id, queuePosition: phase.state === "IN_QUEUE" ? phase.queuePosition : 0 };
  }

  async status(ref: ProviderRequestRef, options: StatusOptions = {}): Promise<ProviderStatus> {
    const row = await this.row(ref, "status");
    const now = this.now();
    const phase = phaseAt(row, now);
    const logs = options.logs ? logsAt(row, now).map((l) => ({ ...l, level: LOG_LEVELS[l.level] })) : [];
    if (phase.state === "IN_QUEUE") return { status: "queued", queuePosition: phase.queuePosition, logs };
    if (phase.state === "IN_PROGRESS") return { status: "running", logs };
    const failure = failureOf(row);
    const failed = phase.cancelled || failure?.mode === "generation";
    return {
      status: phase.cancelled ? "cancelled" : failed ? "failed" : "succeeded",
      logs,
      inferenceTimeMs: phase.cancelled ? null : row.latencyMs - queueMsOf(row),
      error: phase.cancelled ? "Request was cancelled" : failed ? "Invalid status code: 422" : null,
      errorType: phase.cancelled
        ? CANCELLED_ERROR_TYPE
        : failed
          ? failure?.mode === "generation"
            ? (failure.errorType ?? "simulated_failure")
            : null
          : null,
    };
  }

  async result(ref: ProviderRequestRef): Promise<ProviderResult> {
    const row = await this.row(ref, "result");
    const now = this.now();
    const phase = phaseAt(row, now);
    if (phase.state !== "COMPLETED") {
      const end = completesAt(row);
      throw new ProviderUnavailableError("local", "result", "The request has not completed yet", {
        status: 400,
        reason: "not_ready",
        retryAfterMs: end === null ? null : Math.max(1, end - now),
      });
    }
    if (phase.cancelled) {
      return {
        ok: false,
        error: new ModelFailedError("local", "result", "The request was cancelled", { status: 400, errorType: CANCELLED_ERROR_TYPE }),
      };
    }
    const failure = failureOf(row);
    if (failure?.mode === "result") {
      const attempt = this.resultAttempts.next(row.id);
      if (failure.times === null || attempt <= failure.times) throw resultRefusal();
    }
    const built = await this.output(row);
    if (built.ok) return { ok: true, output: built.output };
    return {
      ok: false,
      error: new ModelFailedError("local", "result", describeDetail(built.detail) ?? "the model failed", {
        status: built.status,
        detail: built.detail,
      }),
    };
  }

  async cancel(ref: ProviderRequestRef): Promise<CancelResult> {
    let row: Row;
    try {
      row = await this.row(ref, "cancel");
    } catch (err) {
      if (isProviderRejected(err) && err.reason === "not_found") return { status: "not_found" };
      throw err;
    }
    const now = this.now();
    const phase = phaseAt(row, now);
    if (phase.state === "COMPLETED") return { status: "already_ended" };
    const updated = await this.store.cancel(row.id, new Date(now));
    if (!updated) return { status: "already_ended" };
    return { status: phase.state === "IN_QUEUE" ? "cancelled" : "cancel_requested" };
  }

  async schema(endpointId: string): Promise<ModelSchema> {
    return localModelSchema(endpointId);
  }

  async listModels(options: ListModelsOptions = {}): Promise<ModelListPage> {
    return listLocalModels(options);
  }

  async fetchMedia(url: string): Promise<MediaBytes | null> {
    return readMediaLink(url, Math.floor(this.now() / 1000));
  }

  /** fal's webhook body for a completed request (see lib/provider/fal/webhook-payload.ts). */
  private async webhookBody(row: Row): Promise<Record<string, unknown>> {
    const base = { request_id: row.id, gateway_request_id: row.id };
    const failure = failureOf(row);
    if (failure?.mode === "result") {
      return { ...base, status: "OK", payload: null, payload_error: "local provider: simulated output failure; fetch the result" };
    }
    const built = await this.output(row);
    if (built.ok) return { ...base, status: "OK", payload: built.output };
    return { ...base, status: "ERROR", error: `Invalid status code: ${built.status}`, payload: { detail: built.detail } };
  }

  private output(row: Row): Promise<BuiltOutput> {
    return this.outputs.get(row);
  }

  private async row(ref: ProviderRequestRef, operation: "status" | "result" | "cancel"): Promise<Row> {
    const row = await this.store.get(ref.providerRequestId, (r) => isSettled(r, this.now()));
    if (!row) {
      throw new ProviderRejectedError("local", operation, `Request ${ref.providerRequestId} not found`, {
        status: 404,
        reason: "not_found",
      });
    }
    return row;
  }
}
