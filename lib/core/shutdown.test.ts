import { describe, expect, test, vi } from "vitest";
import { sseResponse } from "@/lib/http/sse";
import { log } from "@/lib/core/logger";
import { readEvents } from "@/test/sse";
import { appUrlMismatch } from "./app-url";
import { beginShutdown, drainableRun, isShuttingDown } from "./shutdown";

// The process-wide drain runs once per process: this file drives one shutdown from start to end
// (the exit that Next.js would call is not held here). The production server's own shutdown is
// covered end to end in e2e/operations.spec.ts.
describe("shutdown drain", () => {
  test("streams end at once with `reconnect`; runs finish within the grace or are told to hand over; jobs stop; counts are logged", async () => {
    const info = vi.spyOn(log, "info");
    // An open stream whose producer would wait for ever.
    let producerAborted = false;
    const open = sseResponse((send, signal) => {
      send("status", { status: "IN_PROGRESS" }, 7);
      return new Promise<void>((resolve) => signal.addEventListener("abort", () => ((producerAborted = true), resolve())));
    });
    // A quick run (finishes inside the grace) and a slow one (hands over when the grace ends).
    let slowToldAt = 0;
    const quick = drainableRun(() => {});
    const slow = drainableRun(() => {
      slowToldAt = Date.now();
      setTimeout(slow.done, 20); // records its hand-over, answers 504
    });
    setTimeout(quick.done, 50);
    const stopJobs = vi.fn(async (graceMs: number) => ({ jobsInFlight: 2, jobsLeftRunning: 0, graceMs }));

    const startedAt = Date.now();
    const drained = beginShutdown("SIGTERM", 300, { stopJobs }, () => {});
    expect(isShuttingDown()).toBe(true);
    // A second signal joins the same drain.
    expect(beginShutdown("SIGTERM", 300, { stopJobs }, () => {})).toBe(drained);

    const read = await readEvents(open);
    expect(read.events).toEqual([
      { id: "7", event: "status", data: { status: "IN_PROGRESS" } },
      { id: undefined, event: "reconnect", data: { reason: "shutdown", message: expect.stringContaining("reconnect") } },
    ]);
    expect(producerAborted).toBe(true);

    await drained;
    expect(slowToldAt - startedAt).toBeGreaterThanOrEqual(290);
    expect(stopJobs).toHaveBeenCalledWith(300);
    expect(info).toHaveBeenCalledWith(
      "shutdown drained",
      expect.objectContaining({ streamsEnded: 1, syncRunsFinished: 1, syncRunsHandedOver: 1, jobsInFlight: 2, jobsLeftRunning: 0 }),
    );

    // A stream opened during the shutdown gets only the reconnect event; a run started now hands over at once.
    const late = await readEvents(sseResponse(async (send) => send("status", { status: "IN_QUEUE" }, 8)));
    expect(late.events).toEqual([{ id: undefined, event: "reconnect", data: expect.objectContaining({ reason: "shutdown" }) }]);
    let toldAtOnce = false;
    drainableRun(() => (toldAtOnce = true));
    expect(toldAtOnce).toBe(true);
  });
});

describe("APP_URL mismatch", () => {
  test("a loopback APP_URL on another port than the listening one is worth a warning", () => {
    expect(appUrlMismatch("http://localhost:3000", 3917)).toContain("port 3000 of this machine but the server listens on port 3917");
    expect(appUrlMismatch("http://127.0.0.1", 3917)).toContain("port 80");
    expect(appUrlMismatch("http://[::1]:3000", 3917)).toContain("port 3000");
  });

  test("a public host, the same port, or no known port is not", () => {
    expect(appUrlMismatch("https://gw.example.com", 3917)).toBeNull();
    expect(appUrlMismatch("http://localhost:3917", 3917)).toBeNull();
    expect(appUrlMismatch("http://localhost:3000", undefined)).toBeNull();
  });
});
