import type { ErrorView } from "./error-view";
import type { SseEvent } from "./read-sse";

/**
 * The playground's view of one run, as a pure reducer over what the browser learns: the queue's
 * answer, SSE events from `status/stream` (event `status`, data = the status response, with
 * `logs` when asked) and `progress/stream` (event `progress` `{stage, percent?, message?}`), the
 * result, and HTTP errors. DESIGN.md "Statuses and events" fixes the names.
 */
export type RunPhase = "idle" | "submitting" | "queued" | "in_progress" | "fetching" | "completed" | "failed" | "cancelled";

export type LogLine = { message: string; timestamp?: string };

export type RunState = {
  phase: RunPhase;
  requestId: string | null;
  queuePosition: number | null;
  stage: string | null;
  percent: number | null;
  logs: LogLine[];
  result: Record<string, unknown> | null;
  /** An HTTP error (the submit was refused, or a read failed). */
  error: ErrorView | null;
  /** The generation itself failed: its error code and message. */
  failure: { code: string; message: string } | null;
};

export type RunAction =
  | { type: "submit" }
  | { type: "accepted"; requestId: string; status?: string; queuePosition?: number | null }
  | { type: "sse"; event: SseEvent }
  | { type: "result"; body: Record<string, unknown> }
  | { type: "error"; view: ErrorView }
  | { type: "reset" };

export const initialRunState: RunState = {
  phase: "idle",
  requestId: null,
  queuePosition: null,
  stage: null,
  percent: null,
  logs: [],
  result: null,
  error: null,
  failure: null,
};

const RANK: Record<RunPhase, number> = {
  idle: 0,
  submitting: 1,
  queued: 2,
  in_progress: 3,
  fetching: 4,
  completed: 5,
  failed: 5,
  cancelled: 5,
};
export const isFinished = (phase: RunPhase) => RANK[phase] === 5;
export const isBusy = (phase: RunPhase) => phase !== "idle" && !isFinished(phase);

/** Gateway statuses, also accepting fal's spelling (IN_QUEUE, IN_PROGRESS, COMPLETED). */
export function normalizeStatus(value: unknown): RunPhase | null {
  const s = String(value ?? "").toLowerCase();
  if (s === "queued" || s === "in_queue" || s === "pending") return "queued";
  if (s === "in_progress" || s === "running") return "in_progress";
  if (s === "completed" || s === "ok") return "fetching";
  if (s === "failed" || s === "error") return "failed";
  if (s === "cancelled" || s === "canceled") return "cancelled";
  return null;
}

/** A phase only moves forward: a late `queued` never hides `in_progress`. */
function advance(state: RunState, phase: RunPhase): RunPhase {
  return RANK[phase] > RANK[state.phase] ? phase : state.phase;
}

function mergeLogs(current: LogLine[], incoming: unknown): LogLine[] {
  if (!Array.isArray(incoming) || incoming.length === 0) return current;
  const seen = new Set(current.map((l) => `${l.timestamp ?? ""}|${l.message}`));
  const out = [...current];
  for (const raw of incoming) {
    if (!raw || typeof raw !== "object" || typeof (raw as LogLine).message !== "string") continue;
    const line: LogLine = { message: (raw as LogLine).message };
    if (typeof (raw as LogLine).timestamp === "string") line.timestamp = (raw as LogLine).timestamp;
    const key = `${line.timestamp ?? ""}|${line.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(line);
  }
  return out;
}

/** The failure a status, result or skill event carries: `error` as a code or `{code, message}`. */
export function failureOf(data: Record<string, unknown>): { code: string; message: string } {
  const err = data.error;
  if (err && typeof err === "object") {
    const e = err as Record<string, unknown>;
    return { code: String(e.code ?? e.error ?? "generation_failed"), message: String(e.message ?? "The generation failed") };
  }
  const code =
    typeof data.error_code === "string"
      ? data.error_code
      : typeof data.errorCode === "string"
        ? data.errorCode
        : typeof err === "string"
          ? err
          : "generation_failed";
  const message =
    typeof data.message === "string"
      ? data.message
      : typeof data.error_message === "string"
        ? data.error_message
        : "The generation failed; nothing was charged for it.";
  return { code, message };
}

function onSse(state: RunState, { event, data }: SseEvent): RunState {
  const d = (data && typeof data === "object" ? data : {}) as Record<string, unknown>;
  switch (event) {
    case "status": {
      const next = normalizeStatus(d.status);
      const queuePosition =
        typeof d.queue_position === "number"
          ? d.queue_position
          : typeof d.queuePosition === "number"
            ? d.queuePosition
            : state.queuePosition;
      const logs = mergeLogs(state.logs, d.logs);
      if (!next) return { ...state, logs, queuePosition };
      const phase = advance(state, next);
      const failure = phase === "failed" && !state.failure ? failureOf(d) : state.failure;
      return { ...state, phase, logs, queuePosition: phase === "queued" ? queuePosition : null, failure };
    }
    case "log":
      return { ...state, logs: mergeLogs(state.logs, [d]) };
    case "progress": {
      const percent = typeof d.percent === "number" ? Math.max(0, Math.min(100, d.percent)) : state.percent;
      const stage = typeof d.stage === "string" ? d.stage : state.stage;
      const logs =
        typeof d.message === "string" && d.message
          ? mergeLogs(state.logs, [{ message: d.message, timestamp: typeof d.timestamp === "string" ? d.timestamp : undefined }])
          : state.logs;
      return { ...state, stage, percent, logs };
    }
    default:
      return state;
  }
}

export function runReducer(state: RunState, action: RunAction): RunState {
  switch (action.type) {
    case "reset":
      return initialRunState;
    case "submit":
      return { ...initialRunState, phase: "submitting" };
    case "accepted":
      return {
        ...state,
        requestId: action.requestId,
        phase: advance(state, normalizeStatus(action.status) ?? "queued"),
        queuePosition: action.queuePosition ?? null,
      };
    case "sse":
      return onSse(state, action.event);
    case "result": {
      if (normalizeStatus(action.body.status) === "failed") {
        // The result's error is the detailed one; a status event may have carried only the status.
        const detailed = action.body.error !== undefined || action.body.message !== undefined;
        return { ...state, phase: "failed", failure: detailed ? failureOf(action.body) : (state.failure ?? failureOf(action.body)) };
      }
      return { ...state, phase: "completed", result: action.body, percent: 100 };
    }
    case "error":
      // The run may go on server-side; the page stops following it and lets the user try again.
      return { ...state, phase: isFinished(state.phase) ? state.phase : "idle", error: action.view };
  }
}
