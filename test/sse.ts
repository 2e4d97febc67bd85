import { createParser } from "eventsource-parser";
import type { RouteHandler } from "@/lib/http/handler";
import { BASE_URL } from "./http";

/**
 * Event streams read the way EventSource reads them (eventsource-parser follows the WHATWG
 * parsing rules): each event's id, type and data, the `retry:` hint, comments. `openStream`
 * calls the route handler without reading the body, so a test can read part of a stream and
 * hang up, as a client whose connection drops.
 */
export type SseEvent = { id: string | undefined; event: string; data: any };
export type SseRead = { retry: number | null; events: SseEvent[]; comments: string[]; text: string };

export async function openStream(
  handler: RouteHandler,
  path: string,
  options: { key?: string; session?: string; params: Record<string, string | string[]>; lastEventId?: string },
): Promise<Response> {
  const headers = new Headers({ accept: "text/event-stream" });
  if (options.key) headers.set("authorization", `Bearer ${options.key}`);
  if (options.session) headers.set("cookie", `authjs.session-token=${options.session}`);
  if (options.lastEventId !== undefined) headers.set("last-event-id", options.lastEventId);
  return handler(new Request(new URL(path, BASE_URL), { headers }), { params: Promise.resolve(options.params) });
}

/** Reads until the stream ends, or until `stop` says so (then hangs up: the body is cancelled). */
export async function readEvents(res: Response, stop?: (event: SseEvent, all: SseEvent[]) => boolean): Promise<SseRead> {
  const read: SseRead = { retry: null, events: [], comments: [], text: "" };
  let stopped = false;
  const parser = createParser({
    onEvent: (e) => {
      if (stopped) return;
      const event = { id: e.id, event: e.event ?? "message", data: JSON.parse(e.data) };
      read.events.push(event);
      if (stop?.(event, read.events)) stopped = true;
    },
    onRetry: (ms) => (read.retry = ms),
    onComment: (c) => read.comments.push(c),
  });
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  while (!stopped) {
    const { done, value } = await reader.read();
    if (done) break;
    const chunk = decoder.decode(value, { stream: true });
    read.text += chunk;
    parser.feed(chunk);
  }
  if (stopped) await reader.cancel();
  return read;
}
