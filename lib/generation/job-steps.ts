import { getDb, type Db } from "@/db/client";
import type { ModelRow } from "@/lib/catalog/columns";
import { cachedModelRow } from "@/lib/catalog/get";
import { log } from "@/lib/core/logger";
import { isProviderUnavailable, ProviderRejectedError } from "@/lib/provider";
import { logEvent, progressEvent, statusEvent } from "./event-log";
import { check, collect, end, fail, openJournal, providerOf, providerWebhookUrl, refOf, resultOf, submit } from "./lifecycle";
import { logsOf } from "./logs";
import type { RunJournal } from "./store";
import { generationById } from "./store";
import { isFinal, type GenerationRow } from "./types";

/**
 * The queued driver: the steps of the `run-generation` function (inngest/functions), each a step
 * of the lifecycle (lifecycle.ts) on the job's row as it stands, so a retried or re-driven step
 * never submits twice or ends a job twice. Provider 429/5xx are thrown: the function retries the
 * step with backoff. A final provider answer ends the job here.
 */
async function load(db: Db, id: string) {
  const row = await generationById(db, id);
  if (!row) return null;
  const model = await cachedModelRow(db, row.modelId);
  return { row, model };
}

/**
 * `callback` (submit only): the provider request carries our webhook URL and the webhook can reach
 * us, so the webhook ends the job and the run only checks rarely, as the fallback.
 */
type StepState = { state: "final" | "pending" | "done"; logsSeen: number; callback?: boolean };

const FINAL: StepState = { state: "final", logsSeen: 0 };

/** Retries of the submit done ahead of the run (transient failures only; each pause ≤ 2 s). */
const AHEAD_RETRIES = 2;

/**
 * The queue request's submit, done in-process right after its hand-off (dispatch.ts), ahead of the
 * run, which then finds it done. A transient failure is left to the run's submit step (and its
 * retries); a refusal ends the job here, refunded.
 */
export async function submitAhead(db: Db, row: GenerationRow, model: ModelRow): Promise<void> {
  try {
    await submit(db, row, model, { webhook: true, retries: AHEAD_RETRIES });
  } catch (err) {
    if (isProviderUnavailable(err)) {
      log.info("queued submit left to its run", { generationId: row.id, error: err.message });
      return;
    }
    await fail(db, row, err).catch((error) =>
      log.error("queued submit refused, and the job not ended yet", { generationId: row.id, error }),
    );
  }
}

/**
 * Submits the job unless it was (by the queue request, a sync run it takes over, or a retry of
 * this step), then reads its status at once: a quick provider has finished already.
 */
export async function submitJobStep(id: string): Promise<StepState> {
  const db = await getDb();
  const job = await load(db, id);
  if (!job || isFinal(job.row.status)) return FINAL;
  if (!job.model) {
    const gone = new ProviderRejectedError(job.row.provider as "local", "submit", `Model ${job.row.modelId} is no longer in the catalog`);
    await fail(db, job.row, gone);
    return FINAL;
  }
  let row: GenerationRow;
  try {
    row = await submit(db, job.row, job.model, { webhook: true });
    if (isFinal(row.status)) return FINAL;
  } catch (err) {
    if (isProviderUnavailable(err)) throw err;
    await fail(db, job.row, err);
    return FINAL;
  }
  // A sync run submits without our webhook URL: a sync job it had submitted is polled.
  const withWebhook = job.row.mode === "queue" || !job.row.providerRequestId;
  const callback = withWebhook && providerOf(job.row).callsBackTo(providerWebhookUrl());
  return { ...(await checkRow(db, row, job.model, 0)), callback };
}

/** Reads the provider's status: records new logs and the move to running; `done` once it completed. */
export async function checkJobStep(id: string, logsSeen: number): Promise<StepState> {
  const db = await getDb();
  const job = await load(db, id);
  if (!job || isFinal(job.row.status) || !job.model) return { state: "final", logsSeen };
  return checkRow(db, job.row, job.model, logsSeen);
}

async function checkRow(db: Db, row: GenerationRow, model: ModelRow, logsSeen: number): Promise<StepState> {
  const checked = await check(db, row, model, logsSeen);
  return checked === "ended" ? { state: "final", logsSeen } : checked;
}

/** Fetches the result, re-hosts it and ends the job (a webhook may have ended it already). */
export async function collectJobStep(id: string): Promise<{ status: string }> {
  const db = await getDb();
  const job = await load(db, id);
  if (!job || isFinal(job.row.status) || !job.model) return { status: job?.row.status ?? "missing" };
  let result;
  try {
    result = await resultOf(job.row, job.model);
  } catch (err) {
    if (isProviderUnavailable(err)) throw err;
    return { status: (await fail(db, job.row, err)).row.status };
  }
  const journal = openJournal(db, job.row, job.model);
  const { outcome } = await collect(db, job.row, result, journal);
  const { row } = await end(db, job.row, outcome, await journal.close());
  return { status: row.status };
}

/**
 * The look at the provider's status a job gets as its webhook ends it (provider-webhook.ts): the
 * queued run's checks are rare (the first 15 s in, dispatch.ts), so a job that ends sooner was
 * never seen running. The move to running and the provider's log lines since the last check go to
 * the journal, ahead of `storing`: the ending's one statement writes them, so streams and
 * `logs=1` get the whole log with no statement more. Best effort: a provider that does not answer
 * leaves them out, and the job ends all the same.
 */
export async function lookBeforeEnd(db: Db, row: GenerationRow, model: Pick<ModelRow, "alias">, journal: RunJournal): Promise<void> {
  if (row.status !== "queued" && row.status !== "in_progress") return;
  const status = await providerOf(row)
    .status(refOf(row, model), { logs: true })
    .catch(() => null);
  if (!status) return;
  // A job seen running has its logs up to its last check recorded: only the lines after them.
  const seen = row.status === "queued" ? 0 : (await logsOf(db, row.id)).length;
  if (row.status === "queued" && status.status !== "IN_QUEUE") {
    journal.progress(statusEvent("in_progress"));
    journal.progress(progressEvent("running"));
  }
  for (const line of status.logs.slice(seen)) journal.progress(logEvent(line.message, line.timestamp));
}

/** The provider never finished in the time the function waits: refund and say so. */
export async function giveUpJobStep(id: string): Promise<{ status: string }> {
  const db = await getDb();
  const job = await load(db, id);
  if (!job || isFinal(job.row.status)) return { status: job?.row.status ?? "missing" };
  if (job.model && job.row.providerRequestId)
    await providerOf(job.row)
      .cancel(refOf(job.row, job.model))
      .catch(() => undefined);
  const { row } = await end(db, job.row, {
    kind: "failed",
    errorCode: "provider_error",
    message: "The provider did not finish the job in time",
  });
  return { status: row.status };
}

/** The function's failure handler: retries are exhausted, so the job fails and is refunded once. */
export async function failJob(id: string, message: string): Promise<void> {
  const db = await getDb();
  const job = await load(db, id);
  if (!job || isFinal(job.row.status)) return;
  await end(db, job.row, { kind: "failed", errorCode: "provider_error", message });
}
