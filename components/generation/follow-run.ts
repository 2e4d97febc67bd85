import { readSse, type SseEvent } from "./read-sse";
import { normalizeStatus, type RunAction, type RunPhase } from "./run-state";

const POLL_MS = 2_000;
const MAX_POLLS = 450; // 15 minutes at the spec's two-second pause: past the 5-minute sync limit with room.

/** The request's own paths under the queue (modelId keeps its slashes, as the spec says). */
export const requestPath = (modelId: string, requestId: string) => `/queue/${modelId}/requests/${encodeURIComponent(requestId)}`;

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener("abort", () => (clearTimeout(timer), reject(signal.reason)), { once: true });
  });
}

/**
 * Follows a queued request to its final status: `status/stream?logs=1` for the status and logs,
 * `progress/stream` beside it for the stage and percent (best effort), and, should the status
 * stream end without a final status (a proxy cut it), polling `…/status` every two seconds as
 * the spec's sample flow does (the first at once when the stream answered 204: the request had
 * already ended). Every event goes to `dispatch`; the final phase is returned
 * (`fetching` = completed, its result still to fetch), or null when it never ended.
 */
export async function followRun(base: string, dispatch: (a: RunAction) => void, signal: AbortSignal): Promise<RunPhase | null> {
  let final: RunPhase | null = null;
  const onEvent = (event: SseEvent) => {
    dispatch({ type: "sse", event });
    if (event.event !== "status") return;
    const phase = normalizeStatus((event.data as { status?: unknown } | null)?.status);
    if (phase === "fetching" || phase === "failed" || phase === "cancelled") final = phase;
  };

  const progress = new AbortController();
  signal.addEventListener("abort", () => progress.abort(), { once: true });
  void fetch(`${base}/progress/stream`, { signal: progress.signal, headers: { accept: "text/event-stream" }, cache: "no-store" })
    .then((res) => (res.ok && res.body ? readSse(res.body, (event) => dispatch({ type: "sse", event })) : undefined))
    .catch(() => undefined);

  // 204: the request ended before the stream opened (nothing to stream); its status is read at once.
  let ended = false;
  try {
    const res = await fetch(`${base}/status/stream?logs=1`, { signal, headers: { accept: "text/event-stream" }, cache: "no-store" });
    ended = res.status === 204;
    if (res.ok && res.body) await readSse(res.body, onEvent);
  } catch (err) {
    if (signal.aborted) throw err;
  }
  for (let i = 0; final === null && i < MAX_POLLS; i++) {
    if (i > 0 || !ended) await sleep(POLL_MS, signal);
    const res = await fetch(`${base}/status?logs=1`, { signal, cache: "no-store" }).catch(() => null);
    if (res?.ok) onEvent({ event: "status", data: await res.json() });
    else if (res && res.status < 500 && res.status !== 429) break;
  }
  // The progress stream ends by itself after the final stage; this only stops it if it lingers.
  setTimeout(() => progress.abort(), 1_000);
  return final;
}
