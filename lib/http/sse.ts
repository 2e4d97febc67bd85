import { log } from "@/lib/logger";

/**
 * Server-sent events: `event: <type>`, `data: <json>`, blank line. A comment line goes out every
 * `heartbeatMs` so proxies keep an idle stream open. The producer returns when the stream should
 * end; a client disconnect aborts `signal`.
 */
export type SseSend = (event: string, data: unknown) => void;

export function sseResponse(
  producer: (send: SseSend, signal: AbortSignal) => Promise<void>,
  { heartbeatMs = 15_000, signal: outer, onClose }: { heartbeatMs?: number; signal?: AbortSignal; onClose?: () => void } = {},
): Response {
  const encoder = new TextEncoder();
  const abort = new AbortController();
  outer?.addEventListener("abort", () => abort.abort(), { once: true });
  let heartbeat: ReturnType<typeof setInterval> | undefined;
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      const write = (text: string) => {
        if (!abort.signal.aborted) controller.enqueue(encoder.encode(text));
      };
      heartbeat = setInterval(() => write(": keep-alive\n\n"), heartbeatMs);
      const send: SseSend = (event, data) => write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
      write(": connected\n\n");
      producer(send, abort.signal)
        .catch((error) => {
          // Internals (a failed query's text) stay in the log; the client learns to reconnect.
          log.error("event stream failed", { error });
          send("error", { message: "The stream failed; reconnect to resume it" });
        })
        .finally(() => {
          clearInterval(heartbeat);
          onClose?.();
          if (!abort.signal.aborted) controller.close();
        });
    },
    cancel() {
      clearInterval(heartbeat);
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
