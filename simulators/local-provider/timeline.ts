import { parseFailure, type Failure } from "./behaviour";
import type { Row } from "./store";

/**
 * Where a simulated request stands at a given moment: a pure function of its row and the clock.
 * The first fifth of the latency is spent in the queue, the rest running; a request whose failure
 * is `timeout` starts and never ends; a cancelled one ends when it was cancelled. The protocol
 * simulators (tools/fal-sim, tools/replicate-sim) keep the same fields in memory and use the same
 * timeline, plus `startDelayMs`: extra queue time before the start, added on top of the latency
 * (their `startDelayMs` option, to make a start deadline pass); the local provider never sets it.
 */
export type TimelineRow = Pick<Row, "endpointId" | "input" | "latencyMs" | "failure" | "submittedAt" | "cancelledAt"> & {
  startDelayMs?: number;
};

/** A runner's log line in fal's levels (the fal-protocol simulator sends them as they are; the local provider translates them). */
export type SimLogLine = { message: string; level: "INFO" | "WARN" | "ERROR"; timestamp: string };

export type Phase = { state: "IN_QUEUE"; queuePosition: number } | { state: "IN_PROGRESS" } | { state: "COMPLETED"; cancelled: boolean };

export const failureOf = (row: TimelineRow): Failure | null => (row.failure ? parseFailure(row.failure) : null);

export function queueMsOf(row: TimelineRow): number {
  return Math.round(row.latencyMs * 0.2) + (row.startDelayMs ?? 0);
}

/** How long it runs once started: the latency less its own queue part (the start delay is not run time). */
export function runMsOf(row: TimelineRow): number {
  return row.latencyMs - Math.round(row.latencyMs * 0.2);
}

/** When it completes (ms since epoch), or null if it never will. */
export function completesAt(row: TimelineRow): number | null {
  return failureOf(row)?.mode === "timeout" ? null : row.submittedAt.getTime() + row.latencyMs + (row.startDelayMs ?? 0);
}

export function phaseAt(row: TimelineRow, now: number): Phase {
  const start = row.submittedAt.getTime();
  const end = completesAt(row);
  const cancelledAt = row.cancelledAt?.getTime() ?? null;
  if (cancelledAt !== null && (end === null || cancelledAt < end) && now >= cancelledAt) return { state: "COMPLETED", cancelled: true };
  if (end !== null && now >= end) return { state: "COMPLETED", cancelled: false };
  const queueEnd = start + queueMsOf(row);
  // One position per quarter second of queue wait left: it counts down like a real queue.
  if (now < queueEnd) return { state: "IN_QUEUE", queuePosition: Math.max(0, Math.ceil((queueEnd - now) / 250) - 1) };
  return { state: "IN_PROGRESS" };
}

/** A request can no longer change once it completed (or was cancelled): safe to cache. */
export function isSettled(row: Row, now: number): boolean {
  return phaseAt(row, now).state === "COMPLETED" && row.webhookState !== "pending";
}

/** The runner's logs up to `now`: model load, sampling steps, then the end. */
export function logsAt(row: TimelineRow, now: number): SimLogLine[] {
  const start = row.submittedAt.getTime();
  const queueMs = queueMsOf(row);
  const end = completesAt(row);
  const runMs = end === null ? Math.max(row.latencyMs, 60_000) - Math.round(row.latencyMs * 0.2) : runMsOf(row);
  const requested = Number(row.input.num_inference_steps);
  const steps = Number.isInteger(requested) && requested > 0 ? Math.min(requested, 50) : 8;
  // At most ten step lines, evenly spread.
  const shown = Array.from(
    new Set(Array.from({ length: Math.min(steps, 10) }, (_, i) => Math.round(((i + 1) * steps) / Math.min(steps, 10)))),
  );
  const lines: { at: number; message: string; level: SimLogLine["level"] }[] = [
    { at: queueMs, message: `Runner acquired; loading ${row.endpointId}`, level: "INFO" },
    ...shown.map((step) => ({
      at: queueMs + Math.round((runMs * step) / (steps + 1)),
      message: `Step ${step}/${steps}`,
      level: "INFO" as const,
    })),
  ];
  const failure = failureOf(row);
  if (end !== null) {
    lines.push(
      failure?.mode === "generation"
        ? { at: end - start, message: "Error: the model failed to generate an output", level: "ERROR" }
        : { at: end - start, message: "Generation finished; uploading outputs", level: "INFO" },
    );
  }
  const cancelledAt = row.cancelledAt?.getTime();
  const horizon = Math.min(now, cancelledAt ?? Infinity);
  const out = lines
    .filter((l) => start + l.at <= horizon)
    .map((l) => ({ message: l.message, level: l.level, timestamp: new Date(start + l.at).toISOString() }));
  if (cancelledAt !== undefined && now >= cancelledAt) {
    out.push({ message: "Request cancelled", level: "WARN", timestamp: new Date(cancelledAt).toISOString() });
  }
  return out;
}
