import { json } from "@/lib/http/json";
import type { ServiceContext } from "@/lib/auth/context";
import { httpStatusOf } from "@/lib/http/errors";
import { modelInputBody } from "@/lib/http/contracts/generation";
import { env } from "@/lib/core/env";
import {
  cancelGeneration,
  getGenerationOrThrow,
  idempotencyOf,
  startGeneration,
  takeStreamSlot,
  isFinal,
  type GenerationRow,
} from "@/lib/generation";
import { DomainError, isDomainError } from "@/lib/core/errors";
import { normalizeError } from "@/lib/http/render";
import { parseWith, readJson } from "@/lib/http/request";
import { checkOutboundUrl, isOutboundError } from "@/lib/net";
import { falBodyOf } from "./errors";
import { endedError, falLogs, falOutput, falStatus, falStatusCode, falSubmitted, notReadyError } from "./render";
import { falSse } from "./sse";
import { heldStatus, statusStream } from "./status-stream";
import { providerPreferencesOf } from "@/lib/http/generation/provider-preferences";
import { idHeader, queueBaseOf, type FalVia } from "./urls";
import { initiateUpload } from "./storage";
import { type FalOperation } from "./target";

/**
 * fal's protocol over the gateway's one engine: each fal operation (./target.ts) is answered by a
 * domain function the gateway surface uses too (startGeneration, getGenerationOrThrow,
 * cancelGeneration, the uploads), with the same auth, per-key limit and generation limit
 * (run/stream/submit count as generations), the same ledger; only the shapes are fal's (./render.ts).
 *
 * `falEndpoint(via, locate)` (./routes.ts) builds one route handler: `locate` says which fal URL the request
 * names (the proxy: from `x-fal-target-url`; the path prefixes: from the path), and the URLs a
 * job's answers carry point back the same way (`via`).
 */
export type Call = { op: FalOperation; query: URLSearchParams; via: FalVia };

/** A fal stream opens once its run has taken this long; a run ending sooner is answered whole (a failure as fal's error status). */
const STREAM_OPEN_AFTER_MS = 5_000;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
/** `logs=1` (JS client) or `logs=true` (Python's httpx renders a bool so). */
const wantsLogs = (query: URLSearchParams) => ["1", "true"].includes((query.get("logs") ?? "").toLowerCase());

/** The model input: fal's clients send no body for an empty input. */
async function inputOf(req: Request): Promise<Record<string, unknown>> {
  const raw = await readJson(req, env().MAX_BODY_BYTES);
  return parseWith(modelInputBody, raw ?? {}, "invalid_body");
}

/** `?fal_webhook=`: held to the outbound rules at submit (422 naming it), never a silent loss later. */
async function webhookOf(query: URLSearchParams): Promise<string | null> {
  const raw = query.get("fal_webhook");
  if (!raw) return null;
  const refuse = (message: string) =>
    new DomainError("invalid_query", `fal_webhook: ${message}`, { issues: [{ path: ["fal_webhook"], message }] });
  if (raw.length > 2048) throw refuse("longer than 2048 characters");
  try {
    return (await checkOutboundUrl(raw)).toString();
  } catch (err) {
    if (isOutboundError(err)) throw refuse(err.message);
    throw err;
  }
}

/**
 * A sync run's error as fal's clients should see it: a model failure is fal's 422 `detail`; a run
 * that outlived the sync wait (it goes on, and is charged) is marked as a user timeout, the one
 * 504 neither fal client retries (a retry would start and charge a second job).
 */
async function falRunError(ctx: ServiceContext, err: unknown): Promise<never> {
  if (isDomainError(err) && typeof err.extra.request_id === "string") {
    if (err.code === "generation_failed") {
      const row = await getGenerationOrThrow(ctx, err.extra.request_id).catch(() => null);
      if (row?.status === "failed") throw endedError(row);
    }
    if (err.code === "timeout")
      throw new DomainError(err.code, err.message, err.extra, { ...err.headers, "x-fal-request-timeout-type": "user" }, httpStatusOf(err));
  }
  throw err;
}

function runSync(
  ctx: ServiceContext,
  req: Request,
  modelId: string,
  input: Record<string, unknown>,
  operation: string,
): Promise<GenerationRow> {
  const idempotency = idempotencyOf(req, ctx.principal, { operation, modelId, body: input });
  return startGeneration(ctx, {
    modelId,
    input,
    surface: "fal",
    mode: "sync",
    operation: "run",
    timing: req,
    idempotency,
    signal: req.signal,
    providers: providerPreferencesOf(req),
  }).catch((err) => falRunError(ctx, err));
}

/** POST fal.run/{model}: the output, as fal answers it. */
async function run(ctx: ServiceContext, req: Request, modelId: string): Promise<Response> {
  const row = await runSync(ctx, req, modelId, await inputOf(req), "fal-run");
  return json(falOutput(row), { headers: idHeader(row.id) });
}

/**
 * POST fal.run/{model}/stream: the output as the stream's one `data:` event (the models the
 * gateway serves yield no partial outputs). A run that ends within a few seconds is answered at
 * once, so its failure keeps fal's status (422 `detail`, 402, …); a longer one opens the stream
 * with keep-alives, and a failure after that is a final `event: error` carrying fal's body.
 */
async function stream(ctx: ServiceContext, req: Request, modelId: string): Promise<Response> {
  const input = await inputOf(req);
  const release = takeStreamSlot(ctx.principal.userId);
  type Outcome = { row: GenerationRow } | { error: unknown };
  const work: Promise<Outcome> = runSync(ctx, req, modelId, input, "fal-stream").then(
    (row) => ({ row }),
    (error: unknown) => ({ error }),
  );
  const early = await Promise.race([work, sleep(STREAM_OPEN_AFTER_MS).then(() => null)]);
  if (early && "error" in early) {
    release();
    throw early.error;
  }
  return falSse(
    async (send) => {
      const outcome = early ?? (await work);
      if ("row" in outcome) return send(falOutput(outcome.row));
      const err = normalizeError(outcome.error, ctx.requestId);
      send(falBodyOf(httpStatusOf(err), { success: false, error: err.code, message: err.message, ...err.extra }).body, "error");
    },
    { signal: req.signal, onClose: release, headers: early ? idHeader(early.row.id) : {} },
  );
}

/** POST queue.fal.run/{model}: queued; fal's submit answer. */
async function submit(ctx: ServiceContext, req: Request, call: Call, modelId: string): Promise<Response> {
  const input = await inputOf(req);
  const webhookUrl = await webhookOf(call.query);
  const idempotency = idempotencyOf(req, ctx.principal, { operation: "fal-queue", modelId, body: input, options: { webhook: webhookUrl } });
  const providers = providerPreferencesOf(req);
  const row = await startGeneration(ctx, {
    modelId,
    input,
    surface: "fal",
    mode: "queue",
    operation: "queue",
    webhookUrl,
    idempotency,
    providers,
  });
  return json(falSubmitted(row, queueBaseOf(call.via)), { headers: idHeader(row.id) });
}

/**
 * PUT …/cancel: fal's `{status}`: OK (cancelled, refunded), CANCELLATION_REQUESTED (asked of the
 * provider); an ended request is 409 conflict (ALREADY_COMPLETED), a running one 400 (IN_PROGRESS).
 */
async function cancel(ctx: ServiceContext, row: GenerationRow, modelId: string): Promise<Response> {
  const answer = await cancelGeneration(ctx, row.id, modelId);
  const ids = { request_id: row.id, requestId: row.id };
  if (answer.ok) return json({ status: "OK" }, { headers: idHeader(row.id) });
  if (isFinal(answer.status as GenerationRow["status"])) {
    throw new DomainError("conflict", "The request has already ended", {
      ...ids,
      status: "ALREADY_COMPLETED",
      detail: "The request has already ended",
      error_type: "already_completed",
    });
  }
  if (row.status === "queued") return json({ status: "CANCELLATION_REQUESTED" }, { status: 202, headers: idHeader(row.id) });
  const message = "The request is already running; only a queued request can be cancelled";
  throw new DomainError("conflict", message, { ...ids, status: "IN_PROGRESS", detail: message, error_type: "already_running" }, {}, 400);
}

/** Answers one fal call, once the route (./routes.ts) has located it and the wrapper let it through. */
export async function perform(ctx: ServiceContext, req: Request, call: Call): Promise<Response> {
  const { op } = call;
  switch (op.kind) {
    case "run":
      return run(ctx, req, op.modelId);
    case "stream":
      return stream(ctx, req, op.modelId);
    case "submit":
      return submit(ctx, req, call, op.modelId);
    case "upload-initiate":
      return json(await initiateUpload(ctx.principal.userId, await readJson(req, env().MAX_BODY_BYTES)));
  }
  const row = await getGenerationOrThrow(ctx, op.requestId, op.modelId);
  const withLogs = wantsLogs(call.query);
  switch (op.kind) {
    case "status": {
      const held = await heldStatus(ctx, row, withLogs, req.signal);
      const body = falStatus(held.row, queueBaseOf(call.via), held.logs ? falLogs(held.logs) : null);
      return json(body, { status: falStatusCode(held.row), headers: idHeader(row.id) });
    }
    case "status-stream":
      return statusStream(ctx, row, withLogs, call.via, req.signal);
    case "result":
      if (row.status === "completed") return json(falOutput(row), { headers: idHeader(row.id) });
      throw isFinal(row.status) ? endedError(row) : notReadyError(row);
    case "cancel":
      return cancel(ctx, row, op.modelId);
  }
}
