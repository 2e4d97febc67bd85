import { getDb } from "@/db/client";
import { APP_ID, inngest } from "@/inngest/client";
import { jobsMode } from "./mode";
import { runEvents } from "./runtime";
import { getRunSummary, listRunsForEvent, type RunSummary } from "./store";
import { hashSigningKey } from "./signing-key";

/**
 * Awaiting a run's result, e.g. a route handler that sends an event and answers with what the
 * function returned. Embedded: the executor kicks the run as soon as the event is stored and
 * notifies this process when it ends, so a waiter learns of it at once (a database poll covers
 * runs finished by another instance). Under an Inngest server: its REST API
 * (`GET /v1/events/{id}/runs`), polled.
 */
export type RunResult = {
  runId: string;
  status: "completed" | "failed" | "cancelled";
  output?: unknown;
  error?: unknown;
};

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
  /** How often to look again without a notification. */
  pollMs?: number;
};

const FINAL = new Set(["completed", "failed", "cancelled"]);

function toResult(row: RunSummary): RunResult {
  return {
    runId: row.id,
    status: row.status as RunResult["status"],
    ...(row.status === "completed" ? { output: row.output } : {}),
    ...(row.status !== "completed" ? { error: row.error } : {}),
  };
}

/** The composite id (`generation-gateway-<id>`) of a function id given either way. */
export function compositeFunctionId(id: string): string {
  return id.startsWith(`${APP_ID}-`) ? id : `${APP_ID}-${id}`;
}

/** Resolves when the run (embedded executor) reaches a final status. */
export async function waitForRun(runId: string, opts: WaitOptions = {}): Promise<RunResult> {
  const { timeoutMs = 300_000, pollMs = 1000, signal } = opts;
  const db = await getDb();
  let wake: () => void = () => {};
  const onFinished = () => wake();
  runEvents.on(runId, onFinished);
  const deadline = Date.now() + timeoutMs;
  try {
    for (;;) {
      const row = await getRunSummary(db, runId);
      if (!row) throw new Error(`no job run ${runId}`);
      if (FINAL.has(row.status)) return toResult(row);
      signal?.throwIfAborted();
      const left = deadline - Date.now();
      if (left <= 0) throw new JobWaitTimeoutError(runId);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.min(pollMs, left));
        const abort = () => resolve();
        signal?.addEventListener("abort", abort, { once: true });
        wake = () => {
          clearTimeout(timer);
          signal?.removeEventListener("abort", abort);
          resolve();
        };
      });
    }
  } finally {
    runEvents.off(runId, onFinished);
  }
}

/**
 * Resolves with the result of the run an event started (of `functionId` if the event triggers
 * several functions). Works in both modes.
 */
export async function waitForEventRun(eventId: string, opts: WaitOptions & { functionId?: string } = {}): Promise<RunResult> {
  if (jobsMode().kind === "server") return waitForEventRunOnServer(eventId, opts);
  const db = await getDb();
  const fnId = opts.functionId ? compositeFunctionId(opts.functionId) : undefined;
  const runs = (await listRunsForEvent(db, eventId)).filter((r) => !fnId || r.functionId === fnId);
  if (runs.length !== 1) {
    throw new Error(`event ${eventId} started ${runs.length} runs${fnId ? ` of ${fnId}` : ""}; expected exactly one`);
  }
  return waitForRun(runs[0]!.id, opts);
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
        (r) => !opts.functionId || !r.function_id || r.function_id === compositeFunctionId(opts.functionId) || r.function_id === opts.functionId,
      );
      if (runs.length > 1) throw new Error(`event ${eventId} started ${runs.length} runs; pass functionId`);
      const run = runs[0];
      const status = run && SERVER_STATUS[run.status];
      if (run && status) return { runId: run.run_id, status, ...(status === "completed" ? { output: run.output } : { error: run.error }) };
    } else if (res.status !== 404) {
      throw new Error(`Inngest API answered ${res.status} for the runs of event ${eventId}`);
    }
    const left = deadline - Date.now();
    if (left <= 0) throw new JobWaitTimeoutError(eventId);
    await new Promise((resolve) => setTimeout(resolve, Math.min(pollMs, left)));
  }
}
