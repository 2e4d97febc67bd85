import { getDb, type Db } from "@/db/client";
import { isProviderUnavailable, ProviderRejectedError } from "@/lib/provider";
import { logEvent, notifyGeneration, progressEvent, statusEvent } from "./event-log";
import { finalizeGeneration } from "./finalize";
import { cachedModelRow } from "@/lib/catalog/get";
import type { ModelRow } from "@/lib/catalog/columns";
import { ensureSubmitted, failureOutcome, outcomeOf, providerOf, providerWebhookUrl, refOf } from "./provider-calls";
import { RunJournal } from "./run-journal";
import { appendEvents, generationById, markInProgress, setQueuePosition } from "./store";
import { isFinal, type GenerationRow } from "./types";

/**
 * The steps of the `run-generation` function, each idempotent against the job row, so a retried
 * or re-driven step never submits twice or ends a job twice. Provider 429/5xx are thrown: the
 * function retries the step with backoff. A final provider answer ends the job here.
 */
async function load(db: Db, id: string) {
  const row = await generationById(db, id);
  if (!row) return null;
  const model = await cachedModelRow(db, row.modelId);
  return { row, model };
}

/** `callback`: the provider's completion webhook can reach us (submit only), so the run checks rarely. */
type StepState = { state: "final" | "pending" | "done"; logsSeen: number; callback?: boolean };

async function endWith(db: Db, row: GenerationRow, err: unknown): Promise<StepState> {
  await finalizeGeneration(db, row, failureOutcome(err));
  return { state: "final", logsSeen: 0 };
}

/** Submits the job (once) and reads its status at once: a quick provider has finished already. */
export async function submitJobStep(id: string): Promise<StepState> {
  const db = await getDb();
  const job = await load(db, id);
  if (!job || isFinal(job.row.status)) return { state: "final", logsSeen: 0 };
  if (!job.model)
    return endWith(
      db,
      job.row,
      new ProviderRejectedError(job.row.provider as "local", "submit", `Model ${job.row.modelId} is no longer in the catalog`),
    );
  let row: GenerationRow;
  try {
    row = await ensureSubmitted(db, job.row, job.model, { webhook: true });
    if (isFinal(row.status)) return { state: "final", logsSeen: 0 };
  } catch (err) {
    if (isProviderUnavailable(err)) throw err;
    return endWith(db, job.row, err);
  }
  const callback = providerOf(job.row).callsBackTo(providerWebhookUrl());
  return { ...(await check(db, row, job.model, 0)), callback };
}

/** Reads the provider's status: records new logs and the move to running; `done` once it completed. */
export async function checkJobStep(id: string, logsSeen: number): Promise<StepState> {
  const db = await getDb();
  const job = await load(db, id);
  if (!job || isFinal(job.row.status) || !job.model) return { state: "final", logsSeen };
  return check(db, job.row, job.model, logsSeen);
}

/** The status check on a row just read (or just submitted: the submit step checks without reading it again). */
async function check(db: Db, row: GenerationRow, model: ModelRow, logsSeen: number): Promise<StepState> {
  const id = row.id;
  let status;
  try {
    status = await providerOf(row).status(refOf(row, model), { logs: true });
  } catch (err) {
    if (isProviderUnavailable(err)) throw err;
    return endWith(db, row, err);
  }
  const events = status.logs.slice(logsSeen).map((l) => logEvent(l.message, l.timestamp));
  // The move to running writes its events and the new logs in its own statement.
  const started =
    status.status !== "IN_QUEUE" &&
    row.status === "queued" &&
    (await markInProgress(db, id, [statusEvent("in_progress"), progressEvent("running"), ...events]));
  if (!started) {
    if (status.status === "IN_QUEUE" && status.queuePosition !== row.queuePosition) {
      await setQueuePosition(db, id, status.queuePosition);
      events.push(statusEvent("queued", status.queuePosition == null ? {} : { queue_position: status.queuePosition }));
    }
    await appendEvents(db, id, events);
  }
  if (started || events.length) notifyGeneration(id);
  return { state: status.status === "COMPLETED" ? "done" : "pending", logsSeen: status.logs.length };
}

/** Fetches the result, re-hosts it and ends the job (a webhook may have ended it already). */
export async function collectJobStep(id: string): Promise<{ status: string }> {
  const db = await getDb();
  const job = await load(db, id);
  if (!job || isFinal(job.row.status) || !job.model) return { status: job?.row.status ?? "missing" };
  let result;
  try {
    result = await providerOf(job.row).result(refOf(job.row, job.model));
  } catch (err) {
    if (isProviderUnavailable(err)) throw err;
    await endWith(db, job.row, err);
    return { status: "failed" };
  }
  const journal = new RunJournal(db, job.row, job.model);
  const outcome = await outcomeOf(db, job.row, result, journal);
  const { row } = await finalizeGeneration(db, job.row, outcome, await journal.close());
  return { status: row.status };
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
  const { row } = await finalizeGeneration(db, job.row, {
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
  await finalizeGeneration(db, job.row, { kind: "failed", errorCode: "provider_error", message });
}
