import { describe, expect, test } from "vitest";
import { readSse } from "@/test/generation";
import { sseResponse } from "./sse";

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

  test("a failing producer ends the stream with a generic error event: its message (a query's text) stays in the log", async () => {
    const res = sseResponse(async (send) => {
      send("status", { status: "running" });
      throw new Error('Failed query: select * from api_keys where hash = $1 params: secret-hash');
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
    await reader.read(); // ": connected"
    abort.abort();
    await new Promise((r) => setTimeout(r, 10));
    expect(closed).toBe(1);
  });
});
