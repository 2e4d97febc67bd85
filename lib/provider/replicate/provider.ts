import { env } from "@/lib/core/env";
import { log } from "@/lib/core/logger";
import { canCallBack } from "@/lib/net/reachable";
import type { JsonSchema } from "@/db/schema/models";
import { CANCELLED_ERROR_TYPE, ModelFailedError, type ProviderOperation, ProviderRejectedError, ProviderUnavailableError } from "../errors";
import {
  httpConfig,
  messageOf,
  parseAnswer,
  providerFetch,
  rejection,
  retryAfterMsOf,
  type HttpConfig,
  type ProviderResponse,
} from "../http";
import type {
  CancelResult,
  GenerationProvider,
  ListModelsOptions,
  MediaBytes,
  ModelListPage,
  ModelSchema,
  ProviderJobState,
  ProviderLog,
  ProviderModel,
  ProviderRequestRef,
  ProviderResult,
  ProviderStatus,
  StatusOptions,
  SubmitRequest,
  SubmitResult,
} from "../types";
import { outputOf, readHeadOverNetwork, type ReadHead } from "./output";
import { fileSchema, modelPageSchema, modelSchema, predictionSchema, problemSchema, type Prediction } from "./schemas";

export type ReplicateProviderOptions = Partial<Omit<HttpConfig, "provider" | "authorization">> & {
  token?: string;
  apiUrl?: string;
  /** `Prefer: wait=N` on a submit whose caller waits inline (1–60 s). */
  waitSeconds?: number;
  /** `Cancel-After` on every create (e.g. `2h`); null: none. A request's start deadline replaces it. */
  cancelAfter?: string | null;
  /** Reads the head of an output file (tests); default a range request under the outbound rules. */
  readHead?: ReadHead;
};

/** Replicate's statuses in the engine's words: `starting` (queued or booting) has not started. */
const STATES: Record<string, ProviderJobState> = {
  starting: "queued",
  processing: "running",
  succeeded: "succeeded",
  failed: "failed",
  canceled: "cancelled",
  aborted: "expired",
};
export const stateOf = (status: string): ProviderJobState => STATES[status] ?? "running";
const ended = (status: string) => ["succeeded", "failed", "canceled", "aborted"].includes(status);

/**
 * A model id as Replicate addresses it: `owner/name` (an official model: POST
 * /models/{owner}/{name}/predictions), `owner/name:version` or a bare 64-hex version id (POST
 * /predictions with `version`). Anything else (fal's `fal-ai/flux/dev`) is not Replicate's.
 */
export function replicateTarget(endpointId: string): { model: string } | { version: string } {
  const withVersion = /^([\w.-]+\/[\w.-]+):([0-9a-f]{64})$/i.exec(endpointId);
  if (withVersion) return { version: withVersion[2]! };
  if (/^[0-9a-f]{64}$/i.test(endpointId)) return { version: endpointId };
  if (/^[\w.-]+\/[\w.-]+$/.test(endpointId)) return { model: endpointId };
  throw new ProviderRejectedError("replicate", "submit", `Not a Replicate model id: ${endpointId} (owner/name or owner/name:version)`, {
    reason: "not_found",
  });
}

/** A data URL longer than this (about 256 KB of bytes) is uploaded rather than inlined. */
const DATA_URL_INLINE_CHARS = Math.ceil((256 * 1024 * 4) / 3) + 64;

/** Terminal predictions a create held by `Prefer: wait` already returned, read once by result/status instead of a GET. */
const HELD_MAX = 1_000;

/**
 * Replicate's prediction API over HTTP (notes/replicate.md): create on an official model or a
 * version, `Prefer: wait` when the caller waits inline (a short job ends inside the create; past
 * the wait it is polled), `Cancel-After` as the deadline (not started by then: `aborted`, not
 * billed, which the engine sees as `expired`), `webhook` with `webhook_events_filter:
 * ["completed"]`, reads and cancels. GETs are retried on 429 and 5xx, creates only on 429 (what
 * the official client does: a 5xx create may have been accepted), honouring Retry-After.
 */
export class ReplicateProvider implements GenerationProvider {
  readonly name = "replicate" as const;
  readonly retriesTransientFailures = true;
  private readonly http: HttpConfig;
  private readonly apiUrl: string;
  private readonly waitSeconds: number;
  private readonly cancelAfter: string | null;
  private readonly readHead: ReadHead;
  private readonly held = new Map<string, Prediction>();

  constructor(options: ReplicateProviderOptions = {}) {
    const e = env();
    const token = options.token ?? e.REPLICATE_API_TOKEN;
    this.http = httpConfig(
      {
        provider: "replicate",
        authorization: token ? `Bearer ${token}` : undefined,
        timeoutMs: options.timeoutMs ?? e.REPLICATE_TIMEOUT_MS,
        maxRetries: options.maxRetries ?? e.REPLICATE_MAX_RETRIES,
      },
      options,
    );
    this.apiUrl = (options.apiUrl ?? e.REPLICATE_API_URL).replace(/\/+$/, "");
    this.waitSeconds = Math.min(60, Math.max(1, options.waitSeconds ?? e.REPLICATE_WAIT_SECONDS));
    this.cancelAfter = options.cancelAfter !== undefined ? options.cancelAfter : e.REPLICATE_CANCEL_AFTER || null;
    this.readHead = options.readHead ?? readHeadOverNetwork;
  }

  callsBackTo(webhookUrl: string): boolean {
    return canCallBack(this.apiUrl, webhookUrl);
  }

  async submit(request: SubmitRequest): Promise<SubmitResult> {
    const target = replicateTarget(request.endpointId);
    const url = "model" in target ? `${this.apiUrl}/models/${target.model}/predictions` : `${this.apiUrl}/predictions`;
    const input = await this.inputOf(request.input, request.signal);
    const body: Record<string, unknown> = { input, ...("version" in target ? { version: target.version } : {}) };
    if (request.webhookUrl) Object.assign(body, { webhook: request.webhookUrl, webhook_events_filter: ["completed"] });
    const headers: Record<string, string> = {};
    if (request.wait) headers.prefer = `wait=${this.waitSeconds}`;
    // Not the start deadline: Replicate's Cancel-After also cancels (and bills) a prediction that
    // started in time and still runs, so a job here is never moved on for a slow start.
    if (this.cancelAfter) headers["cancel-after"] = this.cancelAfter;
    const res = await providerFetch(this.http, {
      operation: "submit",
      method: "POST",
      url,
      body,
      headers,
      retry: "submit",
      // Only a 429 is repeated here: it is refused before anything is created. An answered 5xx is
      // reported as a refusal, not repeated (the official client does not repeat one either).
      retryableStatus: (r) => r.status === 429,
      timeoutMs: request.wait ? this.http.timeoutMs + this.waitSeconds * 1000 : undefined,
      signal: request.signal,
      maxRetries: request.retries,
    });
    if (res.status >= 300) throw this.failure("submit", res);
    const prediction = parseAnswer("replicate", predictionSchema, res, "submit");
    if (ended(prediction.status)) this.hold(prediction);
    log.debug("replicate accepted a prediction", {
      endpointId: request.endpointId,
      providerRequestId: prediction.id,
      requestId: request.requestId,
      status: prediction.status,
    });
    return { providerRequestId: prediction.id, queuePosition: null };
  }

  async status(ref: ProviderRequestRef, options: StatusOptions = {}): Promise<ProviderStatus> {
    const p = this.held.get(ref.providerRequestId) ?? (await this.read(ref, "status", options.signal));
    const logs: ProviderLog[] = options.logs ? logLines(p) : [];
    const state = stateOf(p.status);
    if (state === "queued") return { status: "queued", queuePosition: null, logs };
    if (state === "running") return { status: "running", logs };
    const predictTime = p.metrics?.predict_time;
    return {
      status: state,
      logs,
      inferenceTimeMs: typeof predictTime === "number" ? Math.round(predictTime * 1000) : null,
      error: state === "succeeded" ? null : (errorText(p.error) ?? p.status),
      errorType: state === "cancelled" ? CANCELLED_ERROR_TYPE : state === "expired" ? "start_deadline" : null,
    };
  }

  async result(ref: ProviderRequestRef, options: { signal?: AbortSignal } = {}): Promise<ProviderResult> {
    const held = this.held.get(ref.providerRequestId);
    if (held) this.held.delete(ref.providerRequestId);
    const p = held ?? (await this.read(ref, "result", options.signal));
    return resultOf(p, this.readHead);
  }

  async cancel(ref: ProviderRequestRef, options: { signal?: AbortSignal } = {}): Promise<CancelResult> {
    const res = await providerFetch(this.http, {
      operation: "cancel",
      method: "POST",
      url: `${this.apiUrl}/predictions/${encodeURIComponent(ref.providerRequestId)}/cancel`,
      retry: "idempotent",
      signal: options.signal,
    });
    if (res.status === 404) return { status: "not_found" };
    if (res.status >= 300) throw this.failure("cancel", res);
    const p = predictionSchema.safeParse(res.body);
    if (!p.success) return { status: "cancel_requested" };
    this.held.delete(ref.providerRequestId);
    const state = stateOf(p.data.status);
    if (state === "succeeded" || state === "failed" || state === "expired") return { status: "already_ended" };
    // Cancelled before it started: it never ran. Started: the runner was told to stop.
    return { status: state === "cancelled" && !p.data.started_at ? "cancelled" : "cancel_requested" };
  }

  /** The input and output JSON Schemas of the model's latest version (its OpenAPI document's Input and Output). */
  async schema(endpointId: string, options: { signal?: AbortSignal } = {}): Promise<ModelSchema> {
    const model = parseAnswer(
      "replicate",
      modelSchema,
      await this.get("schema", `/models/${modelPath(endpointId)}`, options.signal),
      "model",
    );
    const schemas = (model.latest_version?.openapi_schema?.components?.schemas ?? {}) as Record<string, JsonSchema>;
    if (!schemas.Input || !schemas.Output) {
      throw new ProviderRejectedError("replicate", "schema", `Replicate has no schema for ${endpointId}`, { reason: "bad_response" });
    }
    const defs = Object.fromEntries(Object.entries(schemas).filter(([k]) => k !== "Input" && k !== "Output"));
    const local = (s: JsonSchema): JsonSchema =>
      JSON.parse(
        JSON.stringify({ ...s, ...(Object.keys(defs).length ? { $defs: defs } : {}) }).replaceAll("#/components/schemas/", "#/$defs/"),
      );
    return { input: local(schemas.Input), output: local(schemas.Output) } as ModelSchema;
  }

  /** A page of Replicate's public models (it publishes no prices through the API: `price` is null), or the ones asked for. */
  async listModels(options: ListModelsOptions = {}): Promise<ModelListPage> {
    if (options.endpointIds?.length) {
      const models = await Promise.all(
        options.endpointIds
          .slice(0, 50)
          .map(async (id) =>
            providerModel(
              parseAnswer("replicate", modelSchema, await this.get("models", `/models/${modelPath(id)}`, options.signal), "model"),
            ),
          ),
      );
      return { models, nextCursor: null };
    }
    const path = options.cursor && options.cursor.startsWith("/") ? options.cursor : "/models";
    const page = parseAnswer("replicate", modelPageSchema, await this.get("models", path, options.signal), "model listing");
    const next = page.next ? new URL(page.next) : null;
    return { models: page.results.map(providerModel), nextCursor: next ? `${next.pathname.replace(/^\/v1/, "")}${next.search}` : null };
  }

  /** Replicate's files live on its delivery CDN: re-hosting downloads them (with the outbound URL rules). */
  async fetchMedia(): Promise<MediaBytes | null> {
    return null;
  }

  /**
   * The input as Replicate takes it: URLs as they are (our uploads and re-hosted files are public
   * URLs), small data URLs inline, and a data URL over 256 KB uploaded to Replicate's Files API
   * first (its docs advise data URLs only for small files), replaced by the file's URL.
   */
  private async inputOf(input: Record<string, unknown>, signal?: AbortSignal): Promise<Record<string, unknown>> {
    const walk = async (value: unknown, depth: number): Promise<unknown> => {
      if (typeof value === "string")
        return value.length > DATA_URL_INLINE_CHARS && /^data:/i.test(value) ? this.upload(value, signal) : value;
      if (depth > 8 || value === null || typeof value !== "object") return value;
      if (Array.isArray(value)) return Promise.all(value.map((v) => walk(v, depth + 1)));
      const entries = await Promise.all(Object.entries(value).map(async ([k, v]) => [k, await walk(v, depth + 1)] as const));
      return Object.fromEntries(entries);
    };
    return (await walk(input, 0)) as Record<string, unknown>;
  }

  private async upload(dataUrl: string, signal?: AbortSignal): Promise<string> {
    const m = /^data:([^;,]*)((?:;[^;,]*)*?)(;base64)?,(.*)$/is.exec(dataUrl);
    if (!m) return dataUrl;
    const bytes = m[3] ? Buffer.from(m[4]!, "base64") : Buffer.from(decodeURIComponent(m[4]!));
    const type = m[1] || "application/octet-stream";
    const form = new FormData();
    form.append("content", new Blob([new Uint8Array(bytes)], { type }), `input.${type.split("/")[1]?.replace(/[^a-z0-9]/gi, "") || "bin"}`);
    form.append("metadata", new Blob([JSON.stringify({})], { type: "application/json" }));
    const res = await providerFetch(this.http, {
      operation: "submit",
      method: "POST",
      url: `${this.apiUrl}/files`,
      form,
      retry: "submit",
      retryableStatus: (r) => r.status === 429,
      signal,
    });
    if (res.status >= 300) throw this.failure("upload", res);
    return parseAnswer("replicate", fileSchema, res, "file upload").urls.get;
  }

  private async read(ref: ProviderRequestRef, operation: ProviderOperation, signal?: AbortSignal): Promise<Prediction> {
    const res = await this.get(operation, `/predictions/${encodeURIComponent(ref.providerRequestId)}`, signal);
    return parseAnswer("replicate", predictionSchema, res, operation);
  }

  private async get(operation: ProviderOperation, path: string, signal?: AbortSignal): Promise<ProviderResponse> {
    const res = await providerFetch(this.http, { operation, method: "GET", url: `${this.apiUrl}${path}`, retry: "idempotent", signal });
    if (res.status >= 300) throw this.failure(operation, res);
    return res;
  }

  private hold(p: Prediction) {
    if (this.held.size >= HELD_MAX) this.held.delete(this.held.keys().next().value!);
    this.held.set(p.id, p);
  }

  /**
   * An API error (RFC 7807) in the engine's words: a 422 on create is the model refusing its input
   * (generation_failed); 429 and 5xx are the provider being unavailable (retryable: provider_error);
   * 401/403/404 and the rest are refusals (provider_error).
   */
  private failure(op: ProviderOperation | "upload", res: ProviderResponse): Error {
    // An upload is part of the submit: its refusals are the submit's.
    const operation: ProviderOperation = op === "upload" ? "submit" : op;
    const problem = problemSchema.safeParse(res.body);
    const detail = problem.success ? (problem.data.detail ?? problem.data.title ?? null) : null;
    if (op === "submit" && (res.status === 422 || res.status === 400)) {
      const fields = problem.success ? (problem.data.invalid_fields ?? []) : [];
      const message =
        fields.map((f) => [f.field, f.description].filter(Boolean).join(": ")).join("; ") ||
        (typeof detail === "string" ? detail : `the model refused its input (${res.status})`);
      return new ModelFailedError("replicate", operation, message, { status: res.status, detail: res.body, errorType: "invalid_input" });
    }
    if (res.status === 429 || res.status >= 500) {
      return new ProviderUnavailableError("replicate", operation, `replicate answered ${res.status}${messageOf(res.body)}`, {
        status: res.status,
        retryAfterMs: retryAfterMsOf(res.headers),
        reason: res.status === 429 ? "rate_limited" : "server_error",
      });
    }
    return rejection("replicate", operation, res, `${operation} refused`);
  }
}

/** How an ended prediction came out, in the engine's words. */
export async function resultOf(p: Prediction, readHead: ReadHead = readHeadOverNetwork): Promise<ProviderResult> {
  switch (p.status) {
    case "succeeded":
      if (p.data_removed) {
        throw new ProviderRejectedError("replicate", "result", `Replicate removed the output of ${p.id}`, { reason: "data_removed" });
      }
      return { ok: true, output: await outputOf(p, readHead) };
    case "failed":
      return {
        ok: false,
        error: new ModelFailedError("replicate", "result", errorText(p.error) ?? "the model failed", { detail: p.error ?? null }),
      };
    case "canceled":
      return {
        ok: false,
        error: new ModelFailedError("replicate", "result", "The prediction was cancelled", { errorType: CANCELLED_ERROR_TYPE }),
      };
    case "aborted":
      // Not started before its Cancel-After deadline: it never ran and is not billed.
      return {
        ok: false,
        error: new ProviderUnavailableError("replicate", "result", "Replicate did not start the prediction before its deadline", {
          reason: "start_deadline",
        }),
      };
    default:
      throw new ProviderUnavailableError("replicate", "result", "The prediction has not ended yet", { reason: "not_ready" });
  }
}

function errorText(error: unknown): string | null {
  if (error == null || error === "") return null;
  if (typeof error === "string") return error;
  const detail = (error as { detail?: unknown; message?: unknown }).detail ?? (error as { message?: unknown }).message;
  return typeof detail === "string" ? detail : JSON.stringify(error).slice(0, 500);
}

/** Replicate's logs are one string; each line is a log entry (they only grow, so the engine's count of lines seen holds). */
function logLines(p: Prediction): ProviderLog[] {
  const at = p.started_at ?? p.created_at ?? new Date().toISOString();
  return (p.logs ?? "")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((message) => ({ message, level: /\b(error|traceback|exception)\b/i.test(message) ? "error" : "info", timestamp: at }));
}

function modelPath(endpointId: string): string {
  const target = replicateTarget(endpointId.split(":")[0]!);
  if (!("model" in target)) throw new ProviderRejectedError("replicate", "schema", `A version id names no model: ${endpointId}`);
  return target.model;
}

function providerModel(m: { owner: string; name: string; description?: string | null; cover_image_url?: string | null }): ProviderModel {
  return {
    endpointId: `${m.owner}/${m.name}`,
    displayName: m.name,
    category: "other",
    description: m.description ?? "",
    status: "active",
    tags: [],
    thumbnailUrl: m.cover_image_url ?? null,
    licenseType: null,
    price: null,
  };
}
