import { relaxedOf, type Db } from "@/db/client";
import { rehostResult } from "@/lib/assets/rehost";
import type { ModelRow } from "@/lib/catalog/columns";
import { env } from "@/lib/core/env";
import { log } from "@/lib/core/logger";
import {
  fetchProviderMedia,
  type GenerationProvider,
  isCircuitOpen,
  isModelFailed,
  isProviderError,
  isProviderUnavailable,
  providerByName,
  type ProviderName,
  type ProviderRequestRef,
  type ProviderResult,
} from "@/lib/provider";
import { endingTopic, eventHub, watch, type EventHub } from "./event-hub";
import { notifyGeneration, progressEvent, type NewGenerationEvent } from "./event-log";
import type { RunJournal } from "./run-journal";
import { generationById, generationEnded, storeSubmission, type Submission } from "./store";
import { FINAL_STATUSES, type GenerationOutcome, type GenerationRow } from "./types";

/** The engine's side of the provider: submit once, read the result, turn it into an outcome. */
export const providerOf = (row: Pick<GenerationRow, "provider">): GenerationProvider => providerByName(row.provider as ProviderName);

export const refOf = (row: GenerationRow, model: Pick<ModelRow, "alias">): ProviderRequestRef => ({
  endpointId: model.alias,
  providerRequestId: row.providerRequestId!,
});

export const providerWebhookUrl = () => `${env().APP_URL.replace(/\/$/, "")}/webhooks/provider`;

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

/**
 * Submits the job unless it already was (a retried step or a job taking over a timed-out sync
 * run reuses the stored provider id: never two runs of one job), and records the provider's id.
 */
export async function ensureSubmitted(
  db: Db,
  row: GenerationRow,
  model: ModelRow,
  options: { webhook: boolean; retries?: number; signal?: AbortSignal },
): Promise<GenerationRow> {
  if (row.providerRequestId || FINAL_STATUSES.includes(row.status)) return row;
  return recordSubmission(db, row, model, await submitJob(row, model, options));
}

/** Sends the job to its provider (retrying what surely did not arrive); records nothing. */
export async function submitJob(
  row: GenerationRow,
  model: ModelRow,
  options: { webhook: boolean; retries?: number; signal?: AbortSignal },
): Promise<Submission> {
  const provider = providerOf(row);
  const request = {
    endpointId: model.alias,
    input: row.input,
    requestId: row.id,
    category: model.category,
    webhookUrl: options.webhook ? providerWebhookUrl() : undefined,
    signal: options.signal,
  };
  for (let attempt = 0; ; attempt++) {
    try {
      const submitted = await provider.submit(request);
      return { providerRequestId: submitted.providerRequestId, queuePosition: submitted.queuePosition ?? null, at: new Date() };
    } catch (err) {
      const retries = provider.retriesTransientFailures ? 0 : (options.retries ?? 0);
      const retry = isProviderUnavailable(err) && !isCircuitOpen(err) && !err.maybeAccepted && attempt < retries;
      if (!retry || options.signal?.aborted) throw err;
      await sleep(Math.min(err.retryAfterMs ?? 100 * 2 ** attempt, 2_000), options.signal);
    }
  }
}

/**
 * Stores the provider's id with its `submitted` event (and any `events` after it), unless the job
 * ended (a cancel) or another worker stored its own id first: then the extra provider request is
 * cancelled and the stored state wins.
 */
export async function recordSubmission(
  db: Db,
  row: GenerationRow,
  model: ModelRow,
  submission: Submission,
  events: NewGenerationEvent[] = [progressEvent("submitted")],
): Promise<GenerationRow> {
  const stored = await storeSubmission(db, row.id, submission, events);
  if (!stored) {
    await providerOf(row)
      .cancel({ endpointId: model.alias, providerRequestId: submission.providerRequestId })
      .catch(() => undefined);
    return (await generationById(db, row.id))!;
  }
  notifyGeneration(row.id);
  return stored;
}

/** The job as it stands once `submission` is recorded (by the run's journal or its ending). */
export const withSubmission = (row: GenerationRow, submission: Submission): GenerationRow => ({
  ...row,
  providerRequestId: submission.providerRequestId,
  submittedAt: submission.at,
  queuePosition: submission.queuePosition,
});

/** The longest pause between two asks for a result, even when the provider's hint says more. */
export const MAX_RESULT_PAUSE_MS = 30_000;

/**
 * Sync mode: asks the provider for the result, with no polling loop per request while it runs.
 * Between asks the wait sleeps for the provider's own `retryAfterMs` hint when it gives one (the
 * simulator says exactly when the job completes: one ask at submit, one at the end), else for a
 * pause growing from 25 ms to 1 s (fal gives no hint for a result not ready yet; its asks are
 * HTTP calls, not database reads). The notice of the job's ending (event-hub.ts: any instance's
 * cancel, a webhook ending it; not the run's own progress) wakes the wait at once: one read of
 * the job's status confirms it, and the wait answers `null` ("ended elsewhere, read the row").
 * A zero-latency provider answers the first ask. Retryable provider failures are retried a few
 * times. `hub` defaults to the process's (tests pass their own).
 */
export async function awaitResult(
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
  const events = hub ?? (await eventHub());
  const changes = watch(events, [endingTopic(row.id)]);
  try {
    await events.ready();
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

/**
 * The provider's result as an outcome; a completed one is re-hosted first (unless passthrough).
 * `storing` goes to the run's journal: written at once if the run is already slow, else by the ending.
 */
export async function outcomeOf(db: Db, row: GenerationRow, result: ProviderResult, journal: RunJournal): Promise<GenerationOutcome> {
  if (!result.ok) return failureOutcome(result.error);
  const output = await rehostOutput(db, row, result.output, journal);
  return { kind: "completed", providerOutput: result.output, output };
}

/**
 * Copies the result's files (asynchronous commits, see relaxedOf: the job's final commit makes
 * them durable with it; a PostgreSQL crash before that only makes a retry copy them again).
 */
async function rehostOutput(
  db: Db,
  row: GenerationRow,
  output: Record<string, unknown>,
  journal: RunJournal,
): Promise<Record<string, unknown>> {
  if (row.passthrough) return output;
  journal.progress(progressEvent("storing"));
  const hosted = await rehostResult(relaxedOf(db), output, {
    userId: row.userId,
    generationId: row.id,
    falRequestId: row.providerRequestId,
    readMedia: fetchProviderMedia,
    deferStored: journal.deferStored,
  });
  return hosted.output;
}

/** A provider or model failure as the outcome that ends the job (the charge is refunded). */
export function failureOutcome(err: unknown): GenerationOutcome {
  // Stopped at the provider (a cancel of ours, or the operator's): cancelled, not the model's failure.
  if (isModelFailed(err) && err.errorType === "request_cancelled") return { kind: "cancelled" };
  if (isModelFailed(err)) return { kind: "failed", errorCode: "generation_failed", message: err.message };
  if (isProviderError(err)) {
    log.warn("generation failed at the provider", { provider: err.provider, operation: err.operation, error: err.message });
    return { kind: "failed", errorCode: "provider_error", message: err.message };
  }
  throw err;
}
