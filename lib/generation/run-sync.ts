import type { Db } from "@/db/client";
import type { ModelRow } from "@/lib/catalog/columns";
import { env } from "@/lib/core/env";
import { DomainError } from "@/lib/core/errors";
import { log } from "@/lib/core/logger";
import { drainableRun } from "@/lib/core/shutdown";
import { isCircuitOpen, isProviderError, isProviderUnavailable } from "@/lib/provider";
import { dispatchGeneration } from "./dispatch";
import { collect, end, fail, failOver, missedStart, openJournal, recordProgress, submit, waitForResult } from "./lifecycle";
import { failureError, stillRunningError } from "./present";
import type { Unrecorded } from "./store";
import { generationById } from "./store";
import { isFinal, type GenerationRow } from "./types";

/**
 * Sync mode (`/run`, skill `sync: true`, integrations): the job runs inline in the request, with
 * its row as the durable state. Every way out after the reserve is an answer the client can act on:
 * - completed → the row (200 with the result);
 * - a provider or model failure → the job is ended and refunded first, then 502/503
 *   `provider_error` (Retry-After when the provider gave a hint) or `generation_failed`;
 * - RUN_SYNC_TIMEOUT_MS passed, or anything unexpected (storage, database) → the job is handed to
 *   the queue function, which resumes the provider request, and the answer is 504 `timeout`
 *   carrying the request id to follow on `/queue`. Never a bare 500 for a job that goes on and
 *   is charged.
 * A shutdown (SIGTERM) outlasting SHUTDOWN_GRACE_MS ends the wait as the timeout does
 * (lib/core/shutdown.ts). If this process dies mid-run, the re-drive sweep hands the job over.
 */
export async function runSync(
  db: Db,
  row: GenerationRow,
  model: ModelRow,
  lap: (stage: string) => void = () => {},
): Promise<GenerationRow> {
  let graceOver!: () => void;
  const grace = new Promise<"timeout">((resolve) => (graceOver = () => resolve("timeout")));
  const drain = drainableRun(graceOver);
  try {
    return await runSyncUntil(db, row, model, lap, grace);
  } finally {
    drain.done();
  }
}

async function runSyncUntil(
  db: Db,
  row: GenerationRow,
  model: ModelRow,
  lap: (stage: string) => void,
  graceOver: Promise<"timeout">,
): Promise<GenerationRow> {
  const abort = new AbortController();
  const work = executeInline(db, row, model, abort.signal, lap);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<"timeout">((resolve) => (timer = setTimeout(() => resolve("timeout"), env().RUN_SYNC_TIMEOUT_MS)));
  const first = await Promise.race([work, timeout, graceOver]).finally(() => clearTimeout(timer));
  if (first === "timeout") abort.abort();
  const run = first === "timeout" ? await work : first;
  if (run.kind === "ended") return answerOf(run.row, run.cause);
  await dispatchGeneration(row.id).catch((error) =>
    // The re-drive sweep hands it over later; the answer stays the same.
    log.error("sync generation not handed to the queue yet", { generationId: row.id, error }),
  );
  throw stillRunningError(row.id, run.reason);
}

/** How the inline work ended: the job is final, or it goes on in the queue function. */
type InlineRun = { kind: "ended"; row: GenerationRow; cause?: unknown } | { kind: "handed_over"; reason: "timeout" | "handed_over" };

function answerOf(row: GenerationRow, cause?: unknown): GenerationRow {
  if (row.status === "completed") return row;
  const error = failureError(row);
  if (row.errorCode !== "provider_error" || !isProviderUnavailable(cause)) throw error;
  // The provider's own hint tells the client when a retry can work; an open circuit, or every
  // route refusing the submit, is 503.
  const retryAfter = { ...error.headers, "Retry-After": String(Math.max(1, Math.ceil((cause.retryAfterMs ?? 1000) / 1000))) };
  if (isCircuitOpen(cause) || row.attempts.length > 0) throw new DomainError("provider_error", error.message, error.extra, retryAfter, 503);
  throw new DomainError("provider_error", error.message, error.extra, cause.retryAfterMs == null ? error.headers : retryAfter);
}

/** The inline work; it never throws (see runSync for what each way out means). */
async function executeInline(
  db: Db,
  row: GenerationRow,
  model: ModelRow,
  signal: AbortSignal,
  lap: (stage: string) => void,
): Promise<InlineRun> {
  let current = row;
  // A quick run (most) leaves its progress to its ending's statement; see RunJournal.
  let journal = openJournal(db, row, model);
  // What the run left to its ending: if the ending fails, the hand-over must still record it.
  let leftToEnding: Unrecorded | null = null;
  try {
    current = await submit(db, row, model, { webhook: false, retries: 2, signal, journal });
    lap("submit");
    if (isFinal(current.status)) return { kind: "ended", row: current };
    let result = await waitForResult(db, current, model, signal);
    // Dropped unstarted at its start deadline: on to the next route (its progress written first,
    // since the move replaces the provider's id), and wait again.
    while (result && missedStart(result)) {
      await recordProgress(db, current, model, await journal.close());
      const moved = await failOver(db, current, model, { webhook: false, signal });
      if (!moved) break;
      if (isFinal(moved.status)) return { kind: "ended", row: moved };
      current = moved;
      journal = openJournal(db, current, model);
      result = await waitForResult(db, current, model, signal);
    }
    if (!result) {
      // Ended meanwhile (a cancel, another instance): answered as it ended; the provider's
      // request is left to finish (or was cancelled by whoever ended the job).
      await journal.close();
      const latest = await reload(db, row.id);
      if (latest && isFinal(latest.status)) return { kind: "ended", row: latest };
      return { kind: "handed_over", reason: "handed_over" };
    }
    lap("result");
    const { outcome } = await collect(db, current, result, journal);
    lap("rehost");
    leftToEnding = await journal.close();
    const final = (await end(db, current, outcome, leftToEnding)).row;
    lap("finalize");
    return { kind: "ended", row: final };
  } catch (err) {
    const unrecorded = leftToEnding ?? (await journal.close());
    if (isProviderError(err) && !signal.aborted) {
      const ended = await fail(db, current, err, unrecorded).then(
        (f) => f.row,
        (error) => (log.error("failed sync generation not ended; handing it to the queue", { generationId: row.id, error }), null),
      );
      if (ended) return { kind: "ended", row: ended, cause: err };
    }
    // Handed over: the queue function must find the provider's id, so it resumes that request
    // instead of submitting again.
    await recordProgress(db, row, model, unrecorded).catch((error) =>
      log.warn("run progress not recorded before the hand-over", { generationId: row.id, error }),
    );
    if (!signal.aborted && !isProviderError(err))
      log.error("sync generation failed unexpectedly; handing it to the queue", { generationId: row.id, error: err });
    // A job that ended meanwhile (a cancel, a provider webhook) is answered as it ended.
    const latest = await reload(db, row.id).catch(() => null);
    if (latest && isFinal(latest.status)) return { kind: "ended", row: latest };
    return { kind: "handed_over", reason: signal.aborted ? "timeout" : "handed_over" };
  }
}

const reload = generationById;
