import { createParser } from "eventsource-parser";

export type SseEvent = { event: string; data: unknown; id?: string };

/** An event's data as JSON when it parses, else the raw text (a server may send plain strings). */
function decode(data: string): unknown {
  try {
    return JSON.parse(data);
  } catch {
    return data;
  }
}

/**
 * Reads a `text/event-stream` body to its end, handing each event to `onEvent`. Comments
 * (heartbeats) are skipped by the parser. Read over fetch rather than EventSource because
 * EventSource reconnects when the server closes a finished stream and hides error statuses.
 */
export async function readSse(body: ReadableStream<Uint8Array>, onEvent: (event: SseEvent) => void): Promise<void> {
  const parser = createParser({
    onEvent: (msg) => onEvent({ event: msg.event ?? "message", data: decode(msg.data), ...(msg.id ? { id: msg.id } : {}) }),
  });
  const decoder = new TextDecoder();
  const reader = body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      parser.feed(decoder.decode(value, { stream: true }));
    }
    parser.feed(decoder.decode());
  } finally {
    reader.releaseLock();
  }
}
