import { log } from "@/lib/core/logger";
import { streamOpened } from "@/lib/observability/metrics";
import { countStreamEnded, shutdownStarted } from "@/lib/core/shutdown";

/**
 * Server-sent events as fal sends them: bare `data: <json>` events (no `event:`, `id:` or `retry:`
 * field: fal's Python client decodes every block as JSON, and a `retry:`-only block would be an
 * empty event to it), a keep-alive comment every 10 s, and the stream closed after the last event
 * (the JS client finishes when the stream closes). `event` names an event only for the one case
 * fal has no shape for (an `error` after the stream opened). A shutdown closes the stream.
 */
export type FalSend = (data: unknown, event?: "error") => void;

const HEARTBEAT_MS = 10_000;

export function falSse(
  producer: (send: FalSend, signal: AbortSignal) => Promise<void>,
  { signal: outer, onClose, headers = {} }: { signal?: AbortSignal; onClose?: () => void; headers?: Record<string, string> } = {},
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
      heartbeat = setInterval(() => write(": keep-alive\n\n"), HEARTBEAT_MS);
      const send: FalSend = (data, event) => write(`${event ? `event: ${event}\n` : ""}data: ${JSON.stringify(data)}\n\n`);
      const stopping = shutdownStarted();
      const endForShutdown = () => {
        if (abort.signal.aborted) return;
        countStreamEnded();
        clearInterval(heartbeat);
        controller.close();
        abort.abort();
      };
      stopping.addEventListener("abort", endForShutdown, { once: true });
      const produced = stopping.aborted ? Promise.resolve(endForShutdown()) : producer(send, abort.signal);
      produced
        .catch((error) => {
          log.error("fal event stream failed", { error });
          send({ detail: "The stream failed; fetch the request's status or result", error_type: "internal_error" }, "error");
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
      ...headers,
    },
  });
}
