import { getDb, type Db } from "@/db/client";
import type { ModelRow } from "@/lib/catalog/columns";
import { cachedModelRow } from "@/lib/catalog/get";
import { isProviderUnavailable, ProviderRejectedError } from "@/lib/provider";
import {
  check,
  collect,
  end,
  fail,
  failOver,
  missedStart,
  openJournal,
  providerOf,
  providerWebhookUrl,
  refOf,
  resultOf,
  submit,
} from "./lifecycle";
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

/** `callback`: the provider's completion webhook can reach us (submit only), so the run checks rarely. */
type StepState = { state: "final" | "pending" | "done"; logsSeen: number; callback?: boolean };

const FINAL: StepState = { state: "final", logsSeen: 0 };

/**
 * When the provider calls back at completion, the submit step looks at the job this long after
 * the submit, to record it starting (its logs, `in_progress`) in the same step: not a wait and a
 * step of its own, two more calls into the function.
 */
export const FIRST_LOOK_MS = 1_000;

/**
 * Submits the job (once) and reads its status: at once when no webhook will come (a quick provider
 * has finished already), else after FIRST_LOOK_MS.
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
  const callback = providerOf(job.row).callsBackTo(providerWebhookUrl());
  if (callback) await new Promise((resolve) => setTimeout(resolve, FIRST_LOOK_MS));
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

/**
 * Fetches the result, re-hosts it and ends the job (a webhook may have ended it already). A job
 * its provider dropped unstarted at the start deadline moves to its next route instead: `moved`,
 * and the run checks on it there.
 */
export async function collectJobStep(id: string): Promise<{ status: string }> {
  const db = await getDb();
  const job = await load(db, id);
  if (!job || isFinal(job.row.status) || !job.model) return { status: job?.row.status ?? "missing" };
  let result;
  try {
    result = await resultOf(job.row, job.model);
    if (missedStart(result) && (await failOver(db, job.row, job.model, { webhook: true }))) return { status: "moved" };
  } catch (err) {
    if (isProviderUnavailable(err)) throw err;
    return { status: (await fail(db, job.row, err)).row.status };
  }
  const journal = openJournal(db, job.row, job.model);
  const { outcome } = await collect(db, job.row, result, journal);
  const { row } = await end(db, job.row, outcome, await journal.close());
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
