import { describe, expect, test } from "vitest";
import { readSse } from "@/test/generation";
import { readEvents } from "@/test/sse";
import { lastEventIdOf, sseDone, sseResponse } from "./sse";

describe("sseResponse", () => {
  test("sends the producer's events and ends when it returns, then runs onClose once", async () => {
    let closed = 0;
    const res = sseResponse(
      async (send) => {
        send("status", { status: "running" });
        send("status", { status: "completed" });
      },
      { onClose: () => closed++ },
    );
    expect(res.headers.get("content-type")).toBe("text/event-stream; charset=utf-8");
    expect(await readSse(res)).toEqual([
      { event: "status", data: { status: "running" } },
      { event: "status", data: { status: "completed" } },
    ]);
    expect(closed).toBe(1);
  });

  test("the wire format is the WHATWG one: a `retry:` hint first, then `id:`, `event:`, one `data:` line and a blank line per event", async () => {
    const res = sseResponse(async (send) => {
      send("status", { status: "running", note: "two\nlines" }, 7);
      send("status", { status: "completed" }, 9);
    });
    const text = await res.clone().text();
    expect(text).toBe(
      "retry: 1000\n\n" +
        'id: 7\nevent: status\ndata: {"status":"running","note":"two\\nlines"}\n\n' +
        'id: 9\nevent: status\ndata: {"status":"completed"}\n\n',
    );
    // What an EventSource makes of it: the reconnection delay, and each event's id (its lastEventId).
    const read = await readEvents(res);
    expect(read.retry).toBe(1000);
    expect(read.events).toEqual([
      { id: "7", event: "status", data: { status: "running", note: "two\nlines" } },
      { id: "9", event: "status", data: { status: "completed" } },
    ]);
  });

  test("a failing producer ends the stream with a generic error event: its message (a query's text) stays in the log", async () => {
    const res = sseResponse(async (send) => {
      send("status", { status: "running" });
      throw new Error("Failed query: select * from api_keys where hash = $1 params: secret-hash");
    });
    const events = await readSse(res);
    expect(events).toEqual([
      { event: "status", data: { status: "running" } },
      { event: "error", data: { message: expect.any(String) } },
    ]);
    expect(JSON.stringify(events)).not.toContain("secret-hash");
    expect(JSON.stringify(events)).not.toContain("Failed query");
  });

  test("a client going away aborts the producer and still runs onClose", async () => {
    let closed = 0;
    const abort = new AbortController();
    const res = sseResponse((_send, signal) => new Promise<void>((resolve) => signal.addEventListener("abort", () => resolve())), {
      signal: abort.signal,
      onClose: () => closed++,
    });
    const reader = res.body!.getReader();
    await reader.read(); // the `retry:` hint
    abort.abort();
    await new Promise((r) => setTimeout(r, 10));
    expect(closed).toBe(1);
  });
});

describe("resuming", () => {
  const req = (url: string, headers: Record<string, string> = {}) => new Request(`http://localhost:3000${url}`, { headers });

  test("Last-Event-ID (EventSource) or lastEventId (polyfills) is where a client left off; the header wins", () => {
    expect(lastEventIdOf(req("/s", { "last-event-id": "42" }))).toBe(42);
    expect(lastEventIdOf(req("/s?lastEventId=17"))).toBe(17);
    expect(lastEventIdOf(req("/s?lastEventId=17", { "last-event-id": "42" }))).toBe(42);
    expect(lastEventIdOf(req("/s", { "last-event-id": "0" }))).toBe(0);
    expect(lastEventIdOf(req("/s"))).toBeNull();
  });

  test("an id that is not one of ours (not a non-negative integer) counts as none", () => {
    for (const bad of ["", "abc", "-1", "1.5", "1e3", "9".repeat(16)]) {
      expect(lastEventIdOf(req("/s", { "last-event-id": bad })), bad).toBeNull();
    }
  });

  test("a stream with nothing left to send is 204 No Content, which stops an EventSource reconnecting", async () => {
    const res = sseDone();
    expect(res.status).toBe(204);
    expect(res.body).toBeNull();
  });
});
