import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import { eq } from "drizzle-orm";
import { getDb } from "@/db/client";
import { jobRuns } from "@/db/schema";
import { inngest } from "@/lib/jobs/client";
import { HANG_MS } from "@/test/wait";
import { ManualClock, systemClock } from "./clock";
import { waitForEventRun, waitForRun } from "./results";
import { installExecutor } from "./runtime";
import { startTestExecutor } from "./testing";

// Auto mode, as in production: no drain() anywhere; a send kicks the run at once.
const attempts = new Map<string, number>();
const quick = inngest.createFunction({ id: "t-quick", retries: 2, triggers: [{ event: "test/quick" }] }, async ({ event, step }) => {
  const doubled = await step.run("double", () => {
    const n = (attempts.get(event.id!) ?? 0) + 1;
    attempts.set(event.id!, n);
    if (event.data.flaky && n === 1) throw new Error("flaky");
    return event.data.n * 2;
  });
  return { doubled };
});

// Holds its step until `release` is called: runs in flight stay in flight.
let release!: () => void;
let gate = new Promise<void>((resolve) => (release = resolve));
const held = inngest.createFunction({ id: "t-held", retries: 0, triggers: [{ event: "test/held" }] }, async ({ step }) => {
  await step.run("wait", () => gate);
  return "done";
});

let jobs: Awaited<ReturnType<typeof startTestExecutor>>;

beforeAll(async () => {
  // The real clock; retries after 10 ms so the test needs no long waits.
  jobs = await startTestExecutor({ functions: [quick], manual: false, clock: systemClock, backoff: () => 10, pollIntervalMs: 60_000 });
  jobs.start();
});
afterAll(async () => {
  await jobs.stop();
  jobs.uninstall();
});

describe("auto mode", () => {
  test("a handler that sends an event can await the run's output; the send kicks the run (no poll)", async () => {
    const { ids } = await inngest.send({ name: "test/quick", data: { n: 21 } });
    // pollMs and the executor's poll are a minute: only the in-process notification and the send's
    // kick can resolve this before HANG_MS (which only catches a hang: a busy machine is slow, not a minute slow).
    await expect(waitForEventRun(ids[0]!, { timeoutMs: HANG_MS, pollMs: 60_000 })).resolves.toMatchObject({
      status: "completed",
      output: { doubled: 42 },
    });
  });

  test("a send creates its run held by this executor, which drives it without a claim", async () => {
    // The executor's own database (claims, the run's writes) is held shut: a run can only start
    // running through the send's own statement, which goes through the events database.
    let open!: () => void;
    const shut = new Promise<void>((resolve) => (open = resolve));
    let gated = false;
    const held = await startTestExecutor({
      functions: [quick],
      manual: false,
      clock: systemClock,
      pollIntervalMs: 60_000,
      eventsDb: getDb,
      db: async () => {
        if (gated) await shut;
        return getDb();
      },
    });
    try {
      held.start();
      gated = true;
      const { ids } = await inngest.send({ name: "test/quick", data: { n: 5 } });
      const [run] = await (await getDb()).select().from(jobRuns).where(eq(jobRuns.eventId, ids[0]!));
      expect(run).toMatchObject({ status: "running", lease: `${held.id}:1`, claims: 1 });
      open();
      await expect(waitForRun(run!.id, { timeoutMs: HANG_MS, pollMs: 100 })).resolves.toMatchObject({ output: { doubled: 10 } });
      const [done] = await (await getDb()).select().from(jobRuns).where(eq(jobRuns.id, run!.id));
      expect(done).toMatchObject({ status: "completed", claims: 1 });
    } finally {
      open();
      await held.stop();
      held.uninstall();
      installExecutor(jobs);
    }
  });

  test("sends at once never hold more runs than the executor's concurrency", async () => {
    gate = new Promise<void>((resolve) => (release = resolve));
    const narrow = await startTestExecutor({
      functions: [held],
      manual: false,
      clock: systemClock,
      pollIntervalMs: 60_000,
      concurrency: 2,
    });
    try {
      narrow.start();
      const sent = await Promise.all(Array.from({ length: 6 }, () => inngest.send({ name: "test/held", data: {} })));
      const runs = (await Promise.all(sent.map(({ ids }) => narrow.runsForEvent(ids[0]!)))).flat();
      expect(runs.filter((r) => r.status === "running")).toHaveLength(2);
      expect(narrow.inflightCount).toBe(2);
      release();
      for (const run of runs)
        await expect(waitForRun(run.id, { timeoutMs: HANG_MS, pollMs: 100 })).resolves.toMatchObject({ output: "done" });
    } finally {
      release();
      await narrow.stop();
      narrow.uninstall();
      installExecutor(jobs);
    }
  });

  test("retries happen on their own", async () => {
    const { ids } = await inngest.send({ name: "test/quick", data: { n: 1, flaky: true } });
    const [run] = await jobs.runsForEvent(ids[0]!);
    // The retry waits 10 ms (backoff above), woken by the executor's own timer, not its minute poll.
    await expect(waitForRun(run!.id, { timeoutMs: HANG_MS, pollMs: 60_000 })).resolves.toMatchObject({
      status: "completed",
      output: { doubled: 2 },
    });
    expect(attempts.get(ids[0]!)).toBe(2);
  });

  test("a retry whose timer fires before the clock reads its due time runs when it is due, not at the next poll", async () => {
    // The clock stands still while the 10 ms retry timer runs, as Date.now() may read a millisecond
    // short when Node runs a timer (a few retries in a hundred did here); the poll is a minute.
    const clock = new ManualClock();
    const lagging = await startTestExecutor({ functions: [quick], manual: false, clock, backoff: () => 10, pollIntervalMs: 60_000 });
    try {
      lagging.start();
      const { ids } = await inngest.send({ name: "test/quick", data: { n: 4, flaky: true } });
      const [run] = await lagging.runsForEvent(ids[0]!);
      await vi.waitFor(async () => expect((await lagging.runsForEvent(ids[0]!))[0]).toMatchObject({ status: "queued", attempt: 1 }), {
        timeout: HANG_MS,
      });
      // Timers run in the order they are due: once this one has, the retry's timer has fired too.
      await new Promise((resolve) => setTimeout(resolve, 50));
      clock.advance(10);
      await expect(waitForRun(run!.id, { timeoutMs: HANG_MS, pollMs: 60_000 })).resolves.toMatchObject({ output: { doubled: 8 } });
    } finally {
      await lagging.stop();
      lagging.uninstall();
      installExecutor(jobs);
    }
  });

  test("many concurrent senders each get their own result", async () => {
    const sent = await Promise.all(Array.from({ length: 30 }, (_, n) => inngest.send({ name: "test/quick", data: { n } })));
    const results = await Promise.all(sent.map(({ ids }) => waitForEventRun(ids[0]!, { timeoutMs: HANG_MS, pollMs: 60_000 })));
    expect(results.map((r) => r.output)).toEqual(Array.from({ length: 30 }, (_, n) => ({ doubled: n * 2 })));
  });

  test("a waiter gives up after its timeout, and an aborted waiter stops at once", async () => {
    await expect(waitForRun("no-such-run", { timeoutMs: 50 })).rejects.toThrow("no job run no-such-run");
    const { ids } = await inngest.send({ name: "test/quick", data: { n: 3 } });
    const controller = new AbortController();
    controller.abort();
    await expect(waitForEventRun(ids[0]!, { signal: controller.signal })).rejects.toThrow();
  });
});
