import { eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { generationRequests } from "@/db/schema";
import type { ModelRow } from "@/lib/catalog/columns";
import { env } from "@/lib/env";
import { ApiError } from "@/lib/http/errors";
import { log } from "@/lib/logger";
import { ProviderError } from "@/lib/provider";
import { dispatchGeneration } from "./dispatch";
import { finalizeGeneration } from "./finalize";
import { failureError } from "./present";
import { awaitResult, failureOutcome, outcomeOf, submitJob, withSubmission } from "./provider-calls";
import { recordNow, RunJournal } from "./run-journal";
import { isFinal, type GenerationRow } from "./types";

/**
 * Sync mode (`/run`, skill `sync: true`, integrations): the job runs inline in the request, with
 * its row as the durable state. When RUN_SYNC_TIMEOUT_MS passes, the inline work stops, the job
 * is handed to the queue function (which reuses the provider request) and the caller gets 504
 * `timeout` with the request id. If this process dies mid-run, the re-drive sweep hands it over.
 * Returns the final row when completed; throws the job's error when it failed.
 */
export async function runSync(db: Db, row: GenerationRow, model: ModelRow, lap: (stage: string) => void = () => {}): Promise<GenerationRow> {
  const abort = new AbortController();
  const work = executeInline(db, row, model, abort.signal, lap);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<"timeout">((resolve) => (timer = setTimeout(() => resolve("timeout"), env().RUN_SYNC_TIMEOUT_MS)));
  const first = await Promise.race([work, timeout]).finally(() => clearTimeout(timer));
  let final: GenerationRow | null = first === "timeout" ? null : first;
  if (first === "timeout") {
    abort.abort();
    final = await work.catch(() => null);
    if (!final || !isFinal(final.status)) {
      await dispatchGeneration(row.id);
      throw new ApiError("timeout", "The generation did not finish within the sync wait; fetch it through /queue with requestId", {
        requestId: row.id,
        request_id: row.id,
      });
    }
  }
  return answerOf(final!);
}

function answerOf(row: GenerationRow): GenerationRow {
  if (row.status === "completed") return row;
  throw failureError(row);
}

async function executeInline(db: Db, row: GenerationRow, model: ModelRow, signal: AbortSignal, lap: (stage: string) => void): Promise<GenerationRow> {
  let current = row;
  // A quick run (most) leaves its progress to its ending's statement; see RunJournal.
  const journal = new RunJournal(db, row, model);
  try {
    if (!row.providerRequestId && !isFinal(row.status)) {
      const submission = await submitJob(row, model, { webhook: false, retries: 2, signal });
      journal.submitted(submission);
      current = withSubmission(row, submission);
    }
    lap("submit");
    if (isFinal(current.status)) return current;
    const result = await awaitResult(current, model, signal);
    lap("result");
    const outcome = await outcomeOf(db, current, result, journal);
    lap("rehost");
    const final = (await finalizeGeneration(db, current, outcome, await journal.close())).row;
    lap("finalize");
    return final;
  } catch (err) {
    const unrecorded = await journal.close();
    if (err instanceof ProviderError && !signal.aborted) return (await finalizeGeneration(db, current, failureOutcome(err), unrecorded)).row;
    // Handed over (the wait ran out, or not the provider's fault): the queue function must find
    // the provider's id, so it resumes that request instead of submitting again.
    await recordNow(db, row, model, unrecorded).catch((error) =>
      log.warn("run progress not recorded before the hand-over", { generationId: row.id, error }),
    );
    if (signal.aborted) return reload(db, row.id);
    // Not the provider's fault (storage, database): the queue function retries it durably.
    log.error("sync generation failed unexpectedly; handing it to the queue", { generationId: row.id, error: err });
    await dispatchGeneration(row.id).catch(() => undefined);
    throw err;
  }
}

async function reload(db: Db, id: string): Promise<GenerationRow> {
  const [row] = await db.select().from(generationRequests).where(eq(generationRequests.id, id));
  return row!;
}
