import { describe, expect, test } from "vitest";
import { sseResponse } from "@/lib/http/sse";
import { readSse, type SseEvent } from "./read-sse";

function streamOf(chunks: string[]): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream({
    start(controller) {
      for (const c of chunks) controller.enqueue(encoder.encode(c));
      controller.close();
    },
  });
}

async function collect(body: ReadableStream<Uint8Array>): Promise<SseEvent[]> {
  const events: SseEvent[] = [];
  await readSse(body, (e) => events.push(e));
  return events;
}

describe("reading a server-sent event stream", () => {
  test("events split across chunks, heartbeats and CRLF line ends are read whole, in order", async () => {
    const events = await collect(
      streamOf([
        ': connected\n\nevent: status\ndata: {"status":"que',
        'ued","request_id":"r1"}\n\n: keep-alive\n\n',
        'event: progress\r\ndata: {"stage":"running","percent":40}\r\n\r\n',
        'event: status\ndata: {"status":"completed","request_id":"r1"}\n\n',
      ]),
    );
    expect(events).toEqual([
      { event: "status", data: { status: "queued", request_id: "r1" } },
      { event: "progress", data: { stage: "running", percent: 40 } },
      { event: "status", data: { status: "completed", request_id: "r1" } },
    ]);
  });

  test("data that is not JSON arrives as text; an event without a name is a message; ids are kept", async () => {
    const events = await collect(streamOf(["id: 7\ndata: line one\ndata: line two\n\n"]));
    expect(events).toEqual([{ event: "message", data: "line one\nline two", id: "7" }]);
  });

  test("reads what the gateway's own SSE writer sends, to its end", async () => {
    const res = sseResponse(async (send) => {
      send("status", { status: "in_progress", request_id: "r2", logs: [{ message: "step 1", timestamp: "2026-01-01T00:00:00Z" }] });
      send("status", { status: "completed", request_id: "r2" });
    });
    expect(await collect(res.body!)).toEqual([
      {
        event: "status",
        data: { status: "in_progress", request_id: "r2", logs: [{ message: "step 1", timestamp: "2026-01-01T00:00:00Z" }] },
      },
      { event: "status", data: { status: "completed", request_id: "r2" } },
    ]);
  });
});
