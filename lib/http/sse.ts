import { log } from "@/lib/core/logger";
import { streamOpened } from "@/lib/observability/metrics";
import { countStreamEnded, shutdownStarted } from "@/lib/core/shutdown";

/**
 * Server-sent events in the form the WHATWG EventSource parser reads: the stream opens with a
 * `retry:` hint (how long a stock EventSource waits before reconnecting), then each event is
 * `id: <id>` (when it has one), `event: <type>`, one `data: <json>` line and a blank line. A
 * comment line goes out every `heartbeatMs` so proxies keep an idle stream open. The producer
 * returns when the stream should end; a client disconnect aborts `signal`.
 *
 * When the process shuts down (lib/core/shutdown.ts), every open stream ends at once with a
 * final `reconnect` event (no id, so a reconnect resumes after the last event that did arrive),
 * and a stream opened during the shutdown gets only that event.
 */
export type SseSend = (event: string, data: unknown, id?: number | string) => void;

export const SSE_RETRY_MS = 1_000;

export function sseResponse(
  producer: (send: SseSend, signal: AbortSignal) => Promise<void>,
  {
    heartbeatMs = 15_000,
    retryMs = SSE_RETRY_MS,
    signal: outer,
    onClose,
  }: { heartbeatMs?: number; retryMs?: number; signal?: AbortSignal; onClose?: () => void } = {},
): Response {
  const encoder = new TextEncoder();
  const abort = new AbortController();
  outer?.addEventListener("abort", () => abort.abort(), { once: true });
  let heartbeat: ReturnType<typeof setInterval> | undefined;
  let closed: (() => void) | undefined;
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      closed = streamOpened();
      const write = (text: string) => {
        if (!abort.signal.aborted) controller.enqueue(encoder.encode(text));
      };
      heartbeat = setInterval(() => write(": keep-alive\n\n"), heartbeatMs);
      // JSON.stringify escapes CR and LF, so the data is always one line; an id is a number or
      // a caller's plain token (an id with a line break would end the field early).
      const send: SseSend = (event, data, id) =>
        write(`${id === undefined ? "" : `id: ${id}\n`}event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
      write(`retry: ${retryMs}\n\n`);
      const stopping = shutdownStarted();
      const endForShutdown = () => {
        if (abort.signal.aborted) return;
        send("reconnect", { reason: "shutdown", message: "The server is shutting down; reconnect to resume this stream" });
        countStreamEnded();
        clearInterval(heartbeat);
        controller.close();
        abort.abort();
      };
      stopping.addEventListener("abort", endForShutdown, { once: true });
      // A stream opened during the shutdown gets only the reconnect event.
      const produced = stopping.aborted ? Promise.resolve(endForShutdown()) : producer(send, abort.signal);
      produced
        .catch((error) => {
          // Internals (a failed query's text) stay in the log; the client learns to reconnect.
          // No id: a reconnect resumes after the last event that did arrive.
          log.error("event stream failed", { error });
          send("error", { message: "The stream failed; reconnect to resume it" });
        })
        .finally(() => {
          stopping.removeEventListener("abort", endForShutdown);
          clearInterval(heartbeat);
          closed?.();
          onClose?.();
          if (!abort.signal.aborted) controller.close();
        });
    },
    cancel() {
      clearInterval(heartbeat);
      closed?.();
      abort.abort();
    },
  });
  return new Response(stream, {
    headers: {
      "Content-Type": "text/event-stream; charset=utf-8",
      "Cache-Control": "no-cache, no-transform",
      Connection: "keep-alive",
      "X-Accel-Buffering": "no",
    },
  });
}

/**
 * 204 No Content: the EventSource standard's answer that stops a client reconnecting (a stream
 * with nothing left to send).
 */
export const sseDone = (): Response => new Response(null, { status: 204, headers: { "Cache-Control": "no-store" } });

/**
 * Where a reconnecting client left off: the `Last-Event-ID` header a stock EventSource sends, or
 * the `lastEventId` query parameter EventSource polyfills send. Our ids are event-log positions
 * (non-negative integers); anything else (an id from another server, garbage) counts as none.
 */
export function lastEventIdOf(req: Request): number | null {
  const raw = req.headers.get("last-event-id") ?? new URL(req.url).searchParams.get("lastEventId");
  const value = raw?.trim();
  return value && /^\d{1,15}$/.test(value) ? Number(value) : null;
}
