import { relaxedOf, type Db } from "@/db/client";
import type { PlannedRoute, RouteAttempt } from "@/db/schema";
import { rehostResult, type RehostResult } from "@/lib/assets/rehost";
import type { ModelRow } from "@/lib/catalog/columns";
import { env } from "@/lib/core/env";
import { log } from "@/lib/core/logger";
import {
  fetchProviderMedia,
  type GenerationProvider,
  isCancelledAtProvider,
  isCircuitOpen,
  isEndState,
  isModelFailed,
  isProviderError,
  isProviderUnavailable,
  providerByName,
  type ProviderName,
  type ProviderRequestRef,
  type ProviderResult,
} from "@/lib/provider";
import type { EventHub } from "./event-hub";
import { logEvent, progressEvent, statusEvent, type NewGenerationEvent } from "./event-log";
import { finalizeGeneration } from "./finalize";
import { watchJob } from "./follow";
import { logsOf } from "./logs";
import {
  appendEvents,
  generationById,
  generationEnded,
  markInProgress,
  setQueuePosition,
  storeAttempts,
  storeFailover,
  storeProgress,
  storeSubmission,
  type Submission,
  RunJournal,
  type Unrecorded,
} from "./store";
import { currentRoute, inputFor, leftRoute, routesAfter, startDeadlineFor } from "./routing";
import { FINAL_STATUSES, type GenerationOutcome, type GenerationRow } from "./types";

/**
 * The life of a job at its provider, written once: submit → check → result → collect → end.
 * Three drivers move a job through it and so write the same rows whichever carries it:
 * - run-sync.ts, inline in a `/run` request (submit, wait for the result, collect, end);
 * - job-steps.ts, the steps of the queued `run-generation` function (submit, check until done, result, collect, end);
 * - provider-webhook.ts, the provider's completion callback (its result, collect, end).
 * Each step is idempotent against the job's row: a retried step never submits twice or ends a job twice.
 */

export const providerOf = (row: Pick<GenerationRow, "provider">): GenerationProvider => providerByName(row.provider as ProviderName);

export const refOf = (row: GenerationRow, model: Pick<ModelRow, "alias">): ProviderRequestRef => ({
  endpointId: currentRoute(row, model).endpointId,
  providerRequestId: row.providerRequestId!,
});

export const providerWebhookUrl = () => `${env().APP_URL.replace(/\/$/, "")}/webhooks/provider`;

/** The run's record of its progress (see RunJournal): written by the ending when the run is quick. */
export const openJournal = (db: Db, row: GenerationRow, model: Pick<ModelRow, "alias">) =>
  new RunJournal(row, (progress) => recordProgress(db, row, model, progress));

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener("abort", done, { once: true });
  });

// ── submit ────────────────────────────────────────────────────────────────────────────────────

export type SubmitOptions = {
  /** Ask the provider to call /webhooks/provider at completion (the queued driver). */
  webhook: boolean;
  /** Retries of a submit that surely did not arrive (429/5xx before acceptance). */
  retries?: number;
  signal?: AbortSignal;
  /** The run's journal: the provider's id is kept for the ending (a quick run) instead of written now. */
  journal?: RunJournal;
};

/**
 * Submits the job unless it already was (a retried step, or a job taking over a sync run, reuses
 * the stored provider id: never two runs of one job), and records the provider's id — at once, or
 * through the run's journal. Answers the job as it then stands.
 */
export async function submit(db: Db, row: GenerationRow, model: ModelRow, options: SubmitOptions): Promise<GenerationRow> {
  if (row.providerRequestId || FINAL_STATUSES.includes(row.status)) return row;
  const submission = await sendToProvider(row, model, currentRoute(row, model), options);
  if (!options.journal) return recordSubmission(db, row, model, submission);
  options.journal.submitted(submission);
  return submittedRow(row, submission);
}

/** The job as it stands once `submission` is recorded. */
const submittedRow = (row: GenerationRow, s: Submission): GenerationRow => ({
  ...row,
  providerRequestId: s.providerRequestId,
  submittedAt: s.at,
  queuePosition: s.queuePosition,
  provider: s.provider,
  providerEndpointId: s.endpointId,
  attempts: s.attempts,
  providerCostCredits: s.costCredits,
});

/**
 * Sends the job to `route`, and on to the plan's next routes while a provider refuses it before
 * taking it (429, 5xx, a timeout before acceptance, an open breaker: routing.ts). A provider that
 * may have taken it (`maybeAccepted`) or that rejects the request itself ends the walk: the job
 * must never run twice, and a request one provider rejects is the caller's to fix. When every
 * route refused, the last refusal is thrown and the attempts are kept on the job.
 */
async function sendToProvider(row: GenerationRow, model: ModelRow, route: PlannedRoute, options: SubmitOptions): Promise<Submission> {
  const attempts = [...row.attempts];
  for (;;) {
    try {
      return { ...(await sendTo(row, model, route, options)), attempts };
    } catch (err) {
      const next = routesAfter({ provider: route.provider, routing: row.routing })[0];
      if (!next || !isProviderUnavailable(err) || err.maybeAccepted || options.signal?.aborted) {
        // After a walk, the job keeps where it went: the routes left, then this one (where it ends).
        if (attempts.length > row.attempts.length)
          (err as { attempts?: RouteAttempt[] }).attempts = [...attempts, leftRoute(route, null, "refused", refusalReason(err))];
        throw err;
      }
      attempts.push(leftRoute(route, next, "refused", refusalReason(err)));
      log.info("provider refused the submit; trying the next route", { generationId: row.id, from: route.provider, to: next.provider });
      route = next;
    }
  }
}

const refusalReason = (err: unknown) => (isCircuitOpen(err) ? "circuit_open" : isProviderUnavailable(err) ? err.reason : "refused");

/** One route's submit, retrying a refusal that surely did not arrive (429/5xx before acceptance) when its client does not. */
async function sendTo(
  row: GenerationRow,
  model: ModelRow,
  route: PlannedRoute,
  options: SubmitOptions,
): Promise<Omit<Submission, "attempts">> {
  const provider = providerByName(route.provider as ProviderName);
  const moving = { provider: route.provider, routing: row.routing };
  const elsewhere = routesAfter(moving).length > 0;
  const request = {
    endpointId: route.endpointId,
    input: inputFor(route, row.input),
    requestId: row.id,
    category: model.category,
    webhookUrl: options.webhook ? providerWebhookUrl() : undefined,
    wait: !options.webhook,
    startDeadlineMs: startDeadlineFor(moving),
    // With another route to go to, a refusal moves on at once instead of being retried here or in the client.
    retries: elsewhere ? 0 : undefined,
    signal: options.signal,
  };
  const retries = provider.retriesTransientFailures || elsewhere ? 0 : (options.retries ?? 0);
  for (let attempt = 0; ; attempt++) {
    try {
      const submitted = await provider.submit(request);
      return {
        providerRequestId: submitted.providerRequestId,
        queuePosition: submitted.queuePosition ?? null,
        at: new Date(),
        provider: route.provider,
        endpointId: route.endpointId,
        costCredits: route.costCredits ?? null,
      };
    } catch (err) {
      const retry = isProviderUnavailable(err) && !isCircuitOpen(err) && !err.maybeAccepted && attempt < retries;
      if (!retry || options.signal?.aborted) throw err;
      await sleep(Math.min(err.retryAfterMs ?? 100 * 2 ** attempt, 2_000), options.signal);
    }
  }
}

/** Whether a result says the job never started before its start deadline (dropped there, unbilled). */
export const missedStart = (result: RunResult): boolean =>
  !result.ok && isProviderUnavailable(result.error) && result.error.reason === "start_deadline";

/**
 * A job its provider dropped unstarted at the start deadline moves to the plan's next route:
 * submitted there (walking on past refusals) and recorded in place of the old provider's id.
 * Answers the job as it then stands, or null when no route is left (the caller ends it).
 */
export async function failOver(db: Db, row: GenerationRow, model: ModelRow, options: SubmitOptions): Promise<GenerationRow | null> {
  const next = routesAfter(row)[0];
  if (!next || !row.providerRequestId) return null;
  const from = currentRoute(row, model);
  const moving = { ...row, attempts: [...row.attempts, leftRoute(from, next, "not_started", "start_deadline")] };
  const submission = await sendToProvider(moving, model, next, options);
  const moved = await storeFailover(db, row.id, row.providerRequestId, submission, [
    progressEvent("submitted", { message: `Not started at ${from.provider} in time; sent to ${submission.provider}` }),
  ]);
  if (!moved) {
    await providerByName(submission.provider as ProviderName)
      .cancel({ endpointId: submission.endpointId, providerRequestId: submission.providerRequestId })
      .catch(() => undefined);
    return generationById(db, row.id);
  }
  return moved;
}

/**
 * Stores the provider's id with its `submitted` event (and any `events` after it), unless the job
 * ended (a cancel) or another worker stored its own id first: then the extra provider request is
 * cancelled and the stored state wins.
 */
async function recordSubmission(
  db: Db,
  row: GenerationRow,
  model: Pick<ModelRow, "alias">,
  submission: Submission,
  events: NewGenerationEvent[] = [progressEvent("submitted")],
): Promise<GenerationRow> {
  const stored = await storeSubmission(db, row.id, submission, events);
  if (!stored) {
    await providerByName(submission.provider as ProviderName)
      .cancel({ endpointId: submission.endpointId, providerRequestId: submission.providerRequestId })
      .catch(() => undefined);
    return (await generationById(db, row.id))!;
  }
  return stored;
}

/** Writes a run's progress now (asynchronous commits): for a slow run, or a run handed over without an ending. */
export async function recordProgress(db: Db, row: GenerationRow, model: Pick<ModelRow, "alias">, progress: Unrecorded): Promise<void> {
  if (progress.submission) await recordSubmission(db, row, model, progress.submission, progress.events);
  await storeProgress(db, row.id, progress.submission ? [] : progress.events, progress.written);
}

// ── check ─────────────────────────────────────────────────────────────────────────────────────

export type Checked = { state: "pending" | "done"; logsSeen: number };

/**
 * Reads the provider's status of a submitted job: records its new logs, its queue position and the
 * move to running. `done` once the provider has the result. A provider's refusal (not a transient
 * failure, which is thrown for the caller to retry) ends the job.
 */
export async function check(db: Db, row: GenerationRow, model: ModelRow, logsSeen: number): Promise<Checked | "ended"> {
  const id = row.id;
  let status;
  try {
    status = await providerOf(row).status(refOf(row, model), { logs: true });
  } catch (err) {
    if (isProviderUnavailable(err)) throw err;
    await fail(db, row, err);
    return "ended";
  }
  const events = status.logs.slice(logsSeen).map((l) => logEvent(l.message, l.timestamp));
  // The move to running writes its events and the new logs in its own statement.
  // A job dropped unstarted (`expired`) never ran: its end is not a start.
  const started =
    status.status !== "queued" &&
    status.status !== "expired" &&
    row.status === "queued" &&
    (await markInProgress(db, id, [statusEvent("in_progress"), progressEvent("running"), ...events]));
  if (!started) {
    if (status.status === "queued" && status.queuePosition !== row.queuePosition) {
      await setQueuePosition(db, id, status.queuePosition);
      events.push(statusEvent("queued", status.queuePosition == null ? {} : { queue_position: status.queuePosition }));
    }
    await appendEvents(db, id, events);
  }
  return { state: isEndState(status.status) ? "done" : "pending", logsSeen: status.logs.length };
}

/**
 * The webhook driver's look at the provider as it ends a job: the webhook carries the result but
 * not the log, and the queued run's own looks are few (1 s in, then 16 s), so without it a job
 * would keep only the lines those looks saw. The lines since the last look go to the journal,
 * ahead of `storing`: the ending's one statement writes them. Best effort: a provider that does not
 * answer leaves them out, and the job ends all the same.
 */
export async function lookBeforeEnd(db: Db, row: GenerationRow, model: Pick<ModelRow, "alias">, journal: RunJournal): Promise<void> {
  if (row.status !== "queued" && row.status !== "in_progress") return;
  const status = await providerOf(row)
    .status(refOf(row, model), { logs: true })
    .catch(() => null);
  if (!status) return;
  // A job seen running has its lines up to its last look recorded: only those after them.
  const seen = row.status === "queued" ? 0 : (await logsOf(db, row.id)).length;
  const lines = status.logs.slice(seen).map((l) => logEvent(l.message, l.timestamp));
  // Never seen running (a job quicker than the first look): the move to running as a check writes
  // it, the row's status and start with its events, in one statement.
  if (row.status === "queued" && status.status !== "queued" && status.status !== "expired") {
    await markInProgress(db, row.id, [statusEvent("in_progress"), progressEvent("running"), ...lines]);
    return;
  }
  for (const line of lines) journal.progress(line);
}

// ── result ────────────────────────────────────────────────────────────────────────────────────

/** The provider's result of a job it has finished (or its failure). */
export const resultOf = (row: GenerationRow, model: Pick<ModelRow, "alias">, signal?: AbortSignal): Promise<ProviderResult> =>
  providerOf(row).result(refOf(row, model), { signal });

/** The longest pause between two asks for a result, even when the provider's hint says more. */
export const MAX_RESULT_PAUSE_MS = 30_000;

/**
 * The inline driver's wait: asks the provider for the result, with no polling loop per request
 * while it runs. Between asks the wait sleeps for the provider's own `retryAfterMs` hint when it
 * gives one (the simulator says exactly when the job completes: one ask at submit, one at the end),
 * else for a pause growing from 25 ms to 1 s (fal gives no hint for a result not ready yet; its
 * asks are HTTP calls, not database reads). The notice of the job's ending (event-hub.ts: any
 * instance's cancel, a webhook ending it; not the run's own progress) wakes the wait at once: one
 * read of the job's status confirms it, and the wait answers `null` ("ended elsewhere, read the
 * row"). Retryable provider failures are retried a few times. `hub` defaults to the process's.
 */
export async function waitForResult(
  db: Db,
  row: GenerationRow,
  model: ModelRow,
  signal: AbortSignal,
  hub?: EventHub,
): Promise<ProviderResult | null> {
  const provider = providerOf(row);
  const ref = refOf(row, model);
  let delay = 25;
  let failures = 0;
  // Followed before the first ask, so a notice committed after it is not missed (no read).
  const changes = await watchJob(row.id, { on: "ending", hub });
  try {
    for (;;) {
      let pause: number;
      try {
        return await provider.result(ref, { signal });
      } catch (err) {
        if (!isProviderUnavailable(err) || signal.aborted) throw err;
        if (err.reason !== "not_ready") {
          if (isCircuitOpen(err) || provider.retriesTransientFailures || ++failures > 3) throw err;
          pause = Math.max(5, Math.min(err.retryAfterMs ?? delay, delay));
        } else {
          pause = err.retryAfterMs != null ? Math.min(Math.max(1, err.retryAfterMs), MAX_RESULT_PAUSE_MS) : delay;
        }
        delay = Math.min(delay * 2, 1_000);
      }
      const until = Date.now() + pause;
      for (;;) {
        const woken = await changes.wait({ signal, fallbackMs: pause, untilMs: until });
        if (signal.aborted) signal.throwIfAborted();
        if (woken.size === 0) break;
        if (await generationEnded(db, row.id)) return null;
        if (Date.now() >= until) break;
      }
    }
  } finally {
    changes.close();
  }
}

// ── collect ───────────────────────────────────────────────────────────────────────────────────

/** A provider's result, or the failure met fetching it (a model's failure, a refusal: both end the job). */
export type RunResult = ProviderResult | { ok: false; error: unknown };

export type Collected = { outcome: GenerationOutcome; assets: RehostResult<unknown>["counts"] };

const NO_ASSETS: Collected["assets"] = { found: 0, uploaded: 0, failed: 0 };

/**
 * The provider's result as the outcome that ends the job; a completed one is re-hosted first
 * (unless passthrough), its `storing` progress and the copies' `stored` marks going to the run's
 * journal. The copies use asynchronous commits (relaxedOf): the ending's commit makes them durable
 * with it; a PostgreSQL crash before that only makes a retry copy them again.
 */
export async function collect(db: Db, row: GenerationRow, result: RunResult, journal: RunJournal): Promise<Collected> {
  if (!result.ok) return { outcome: failureOutcome(result.error), assets: NO_ASSETS };
  if (!row.passthrough) journal.progress(progressEvent("storing"));
  const hosted = await rehostResult(relaxedOf(db), result.output, {
    passthrough: row.passthrough,
    userId: row.userId,
    generationId: row.id,
    falRequestId: row.providerRequestId,
    readMedia: fetchProviderMedia,
    deferStored: journal.deferStored,
  });
  return { outcome: { kind: "completed", providerOutput: result.output, output: hosted.output }, assets: hosted.counts };
}

// ── end ───────────────────────────────────────────────────────────────────────────────────────

/** Ends the job with its outcome: settle or refund, activity, events, callback (finalize.ts, the one ending). */
export const end = finalizeGeneration;

/** Ends the job with a provider's or model's failure (refunded). */
export async function fail(db: Db, row: GenerationRow, err: unknown, unrecorded?: Unrecorded) {
  // Every route refused the submit: the job keeps what each one said.
  const attempts = (err as { attempts?: RouteAttempt[] } | null)?.attempts;
  if (attempts) await storeAttempts(db, row.id, attempts);
  return end(db, row, failureOutcome(err), unrecorded);
}

/** A provider or model failure as the outcome that ends the job (the charge is refunded). */
export function failureOutcome(err: unknown): GenerationOutcome {
  // Stopped at the provider (a cancel of ours, or the operator's): cancelled, not the model's failure.
  if (isCancelledAtProvider(err)) return { kind: "cancelled" };
  if (isModelFailed(err)) return { kind: "failed", errorCode: "generation_failed", message: err.message };
  if (isProviderError(err)) {
    log.warn("generation failed at the provider", { provider: err.provider, operation: err.operation, error: err.message });
    return { kind: "failed", errorCode: "provider_error", message: err.message };
  }
  throw err;
}
