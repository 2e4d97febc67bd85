import { getDb } from "@/db/client";
import { APP_ID, inngest } from "@/lib/jobs/client";
import { jobsMode } from "./mode";
import { runEvents } from "./runtime";
import { hashSigningKey } from "./signing-key";
import { getRunSummary, listRunsForEvent, type FinishedRun, type RunSummary } from "./store";

/**
 * Awaiting a run's result, e.g. a route handler that sends an event and answers with what the
 * function returned. Embedded: the executor kicks the run as soon as the event is stored and
 * hands the result to waiters in this process the moment the run ends (a database poll covers
 * runs finished by another instance). Under an Inngest server: its REST API
 * (`GET /v1/events/{id}/runs`), polled.
 */
export type RunResult = FinishedRun;

export class JobWaitTimeoutError extends Error {
  override name = "JobWaitTimeoutError";
  constructor(readonly ref: string) {
    super(`run for ${ref} did not finish in time; it goes on in the background`);
  }
}

export type WaitOptions = {
  /** Give up (JobWaitTimeoutError) after this long; the run itself goes on. Default 5 minutes. */
  timeoutMs?: number;
  /** Stop waiting when aborted (e.g. the client went away). */
  signal?: AbortSignal;
  /** How often to look in the database without a notification (runs finished elsewhere). */
  pollMs?: number;
};

const FINAL = new Set(["completed", "failed", "cancelled"]);

function toResult(row: RunSummary): RunResult {
  return row.status === "completed"
    ? { runId: row.id, status: "completed", output: row.output }
    : { runId: row.id, status: row.status as "failed" | "cancelled", error: row.error };
}

/** The composite id (`generation-gateway-<id>`) of a function id given either way. */
export function compositeFunctionId(id: string): string {
  return id.startsWith(`${APP_ID}-`) ? id : `${APP_ID}-${id}`;
}

/**
 * Waits for the run `find` locates. Listening starts before the first look, so a run that ends
 * in between is not missed.
 */
async function awaitRun(find: () => Promise<RunSummary>, ref: string, opts: WaitOptions): Promise<RunResult> {
  const { timeoutMs = 300_000, pollMs = 1000, signal } = opts;
  const deadline = Date.now() + timeoutMs;
  let runId: string | undefined;
  let delivered: RunResult | undefined;
  let wake = () => {};
  const onFinished = (result: RunResult) => {
    if (runId === undefined || result.runId === runId) {
      if (runId !== undefined) delivered = result;
      else early.set(result.runId, result);
      wake();
    }
  };
  const early = new Map<string, RunResult>();
  runEvents.on("finished", onFinished);
  try {
    const first = await find();
    runId = first.id;
    if (FINAL.has(first.status)) return toResult(first);
    delivered = early.get(runId);
    for (;;) {
      if (delivered) return delivered;
      signal?.throwIfAborted();
      const left = deadline - Date.now();
      if (left <= 0) throw new JobWaitTimeoutError(ref);
      await new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(timer);
          signal?.removeEventListener("abort", done);
          resolve();
        };
        const timer = setTimeout(done, Math.min(pollMs, left));
        signal?.addEventListener("abort", done, { once: true });
        wake = done;
      });
      if (delivered) return delivered;
      const row = await getRunSummary(await getDb(), runId);
      if (row && FINAL.has(row.status)) return toResult(row);
    }
  } finally {
    runEvents.off("finished", onFinished);
  }
}

/** Resolves when the run (embedded executor) reaches a final status. */
export async function waitForRun(runId: string, opts: WaitOptions = {}): Promise<RunResult> {
  return awaitRun(
    async () => {
      const row = await getRunSummary(await getDb(), runId);
      if (!row) throw new Error(`no job run ${runId}`);
      return row;
    },
    runId,
    opts,
  );
}

/**
 * Resolves with the result of the run an event started (of `functionId` if the event triggers
 * several functions). Works in both modes.
 */
export async function waitForEventRun(eventId: string, opts: WaitOptions & { functionId?: string } = {}): Promise<RunResult> {
  if (jobsMode().kind === "server") return waitForEventRunOnServer(eventId, opts);
  const fnId = opts.functionId ? compositeFunctionId(opts.functionId) : undefined;
  return awaitRun(
    async () => {
      const runs = (await listRunsForEvent(await getDb(), eventId)).filter((r) => !fnId || r.functionId === fnId);
      if (runs.length !== 1)
        throw new Error(`event ${eventId} started ${runs.length} runs${fnId ? ` of ${fnId}` : ""}; expected exactly one`);
      return runs[0]!;
    },
    eventId,
    opts,
  );
}

type ApiRun = { run_id: string; function_id?: string; status: string; output?: unknown; error?: unknown };
const SERVER_STATUS: Record<string, RunResult["status"]> = { Completed: "completed", Failed: "failed", Cancelled: "cancelled" };

async function waitForEventRunOnServer(eventId: string, opts: WaitOptions & { functionId?: string }): Promise<RunResult> {
  const { timeoutMs = 300_000, pollMs = 500, signal } = opts;
  const deadline = Date.now() + timeoutMs;
  const url = new URL(`v1/events/${encodeURIComponent(eventId)}/runs`, inngest.apiBaseUrl.replace(/\/?$/, "/"));
  const headers: Record<string, string> = {};
  if (inngest.signingKey) headers.authorization = `Bearer ${hashSigningKey(inngest.signingKey)}`;
  for (;;) {
    signal?.throwIfAborted();
    const res = await fetch(url, { headers, signal });
    if (res.ok) {
      const body = (await res.json()) as { data?: ApiRun[] };
      const runs = (body.data ?? []).filter(
        (r) =>
          !opts.functionId || !r.function_id || r.function_id === compositeFunctionId(opts.functionId) || r.function_id === opts.functionId,
      );
      if (runs.length > 1) throw new Error(`event ${eventId} started ${runs.length} runs; pass functionId`);
      const run = runs[0];
      const status = run && SERVER_STATUS[run.status];
      if (run && status) {
        return status === "completed" ? { runId: run.run_id, status, output: run.output } : { runId: run.run_id, status, error: run.error };
      }
    } else if (res.status !== 404) {
      throw new Error(`Inngest API answered ${res.status} for the runs of event ${eventId}`);
    }
    const left = deadline - Date.now();
    if (left <= 0) throw new JobWaitTimeoutError(eventId);
    await new Promise((resolve) => setTimeout(resolve, Math.min(pollMs, left)));
  }
}
