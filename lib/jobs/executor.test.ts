import { and, eq, inArray, sql } from "drizzle-orm";
import { NonRetriableError, RetryAfterError } from "inngest";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { getDb } from "@/db/client";
import { jobEvents, jobRunOps, jobRuns } from "@/db/schema";
import { inngest } from "@/lib/jobs/client";
import { HANG_MS } from "@/test/wait";
import { ManualClock } from "./clock";
import { waitForEventRun } from "./results";
import { installExecutor } from "./runtime";
import { resolveWait } from "./store/job-events";
import { startTestExecutor } from "./testing";

// Test-only sample functions: every step body counts its executions under the test's key.
const bodies = new Map<string, number>();
const bump = (key: string) => bodies.set(key, (bodies.get(key) ?? 0) + 1);
const count = (key: string) => bodies.get(key) ?? 0;
const failures: { key: string; message: string; functionId: string }[] = [];
let seq = 0;
const key = () => `k${Date.now().toString(36)}${seq++}`;

const flow = inngest.createFunction(
  {
    id: "t-flow",
    retries: 2,
    triggers: [{ event: "test/flow.start" }],
    onFailure: async ({ event, error, step }) => {
      await step.run("record-failure", () => {
        failures.push({ key: event.data.event.data.key, message: error.message, functionId: event.data.function_id });
      });
    },
  },
  async ({ event, step }) => {
    const k: string = event.data.key;
    bump(`${k}:entered`);
    const a = await step.run("a", () => {
      bump(`${k}:a`);
      return { n: 1 };
    });
    const reply = await step.waitForEvent("reply", { event: "test/flow.reply", timeout: "1d", match: "data.key" });
    await step.sendEvent("notify", { name: "test/flow.notified", data: { key: k, replied: !!reply } });
    const b = await step.run("b", () => {
      bump(`${k}:b`);
      if (event.data.failB) throw new Error("b broke");
      return 2;
    });
    return { a, reply: reply ? reply.data : null, b };
  },
);

const strict = inngest.createFunction(
  {
    id: "t-strict",
    retries: 4,
    triggers: [{ event: "test/strict" }],
    onFailure: async ({ event, error }) =>
      void failures.push({ key: event.data.event.data.key, message: error.message, functionId: event.data.function_id }),
  },
  async ({ event, step }) => {
    await step.run("refuse", () => {
      bump(`${event.data.key}:refuse`);
      throw new NonRetriableError("bad input");
    });
  },
);

const polite = inngest.createFunction({ id: "t-polite", retries: 2, triggers: [{ event: "test/polite" }] }, async ({ event, step }) =>
  step.run("call", () => {
    bump(`${event.data.key}:call`);
    if (count(`${event.data.key}:call`) === 1) throw new RetryAfterError("slow down", "30m");
    return "ok";
  }),
);

const pair = inngest.createFunction({ id: "t-pair", triggers: [{ event: "test/pair" }] }, async ({ event, step }) => {
  const k: string = event.data.key;
  const x = await step.run("x", () => (bump(`${k}:x`), "x"));
  const y = await step.run("y", () => (bump(`${k}:y`), "y"));
  return x + y;
});

const provider = inngest.createFunction({ id: "t-provider", triggers: [{ event: "test/provider.submit" }] }, async ({ event, step }) => {
  const requestId = await step.run("submit", () => `req_${event.data.key}`);
  // The id is only known from a step: interpolated into `if`, as a provider webhook wait would be.
  const done = await step.waitForEvent("done", {
    event: "test/provider.done",
    timeout: "1h",
    if: `async.data.requestId == "${requestId}"`,
  });
  return done?.data.status ?? "timed out";
});

const active = new Map<string, number>();
const peak = new Map<string, number>();
async function occupy(group: string) {
  active.set(group, (active.get(group) ?? 0) + 1);
  peak.set(group, Math.max(peak.get(group) ?? 0, active.get(group)!));
  // Yield for real so that runs admitted together would overlap.
  await new Promise((resolve) => setTimeout(resolve, 5));
  active.set(group, active.get(group)! - 1);
}
const limited = inngest.createFunction(
  { id: "t-limited", concurrency: { key: "event.data.user", limit: 1 }, triggers: [{ event: "test/limited" }] },
  async ({ event, step }) => {
    await step.run("work", () => occupy(`limited:${event.data.group}:${event.data.user}`));
    await step.run("more", () => occupy(`limited:${event.data.group}:${event.data.user}`));
  },
);
const unlimited = inngest.createFunction({ id: "t-unlimited", triggers: [{ event: "test/unlimited" }] }, async ({ event, step }) => {
  await step.run("work", () => occupy(`unlimited:${event.data.group}`));
});

// cancelOn: the event that ends the watched work cancels the run (match: what the provider webhook's event does).
let gate: Promise<void> = Promise.resolve();
const watched = inngest.createFunction(
  { id: "t-watched", triggers: [{ event: "test/watched.start" }], cancelOn: [{ event: "test/watched.done", match: "data.key" }] },
  async ({ event, step }) => {
    const k: string = event.data.key;
    await step.run("look", async () => {
      bump(`${k}:look`);
      if (event.data.held) await gate;
    });
    const done = await step.waitForEvent("done", { event: "test/watched.done", timeout: "1h", match: "data.key" });
    await step.run("after", () => bump(`${k}:after`));
    return done ? "woken" : "timed out";
  },
);

const functions = [flow, strict, polite, pair, provider, limited, unlimited, watched];
const clock = new ManualClock();
let jobs: Awaited<ReturnType<typeof startTestExecutor>>;

beforeAll(async () => {
  jobs = await startTestExecutor({ functions, clock });
});
afterAll(() => jobs.uninstall());

async function runOf(eventId: string, functionId: string) {
  const db = await getDb();
  const [run] = await db
    .select()
    .from(jobRuns)
    .where(and(eq(jobRuns.eventId, eventId), eq(jobRuns.functionId, `generation-gateway-${functionId}`)));
  return run!;
}

describe("steps", () => {
  test("a step body runs once although the function is re-entered for every step", async () => {
    const k = key();
    const { ids } = await inngest.send({ name: "test/flow.start", data: { key: k } });
    await jobs.drain();
    expect(await runOf(ids[0]!, "t-flow")).toMatchObject({ status: "waiting" });
    await inngest.send({ name: "test/flow.reply", data: { key: k, answer: 42 } });
    await jobs.drain();
    const run = await runOf(ids[0]!, "t-flow");
    expect(run).toMatchObject({ status: "completed", output: { a: { n: 1 }, reply: { key: k, answer: 42 }, b: 2 } });
    expect(count(`${k}:a`)).toBe(1);
    expect(count(`${k}:b`)).toBe(1);
    expect(count(`${k}:entered`)).toBeGreaterThanOrEqual(4);
    // step.sendEvent went through the executor like inngest.send.
    const db = await getDb();
    const notified = await db.select().from(jobEvents).where(eq(jobEvents.name, "test/flow.notified"));
    expect(notified.map((e) => e.payload.data)).toContainEqual({ key: k, replied: true });
  });

  test("steps run in order, each once, and the function returns with their results", async () => {
    const k = key();
    const { ids } = await inngest.send({ name: "test/pair", data: { key: k } });
    await jobs.drain();
    expect(await runOf(ids[0]!, "t-pair")).toMatchObject({ status: "completed", output: "xy" });
    expect([count(`${k}:x`), count(`${k}:y`)]).toEqual([1, 1]);
  });
});

describe("waits", () => {
  test("waitForEvent only takes a matching event sent after the wait began", async () => {
    const k = key();
    // Before the wait exists (the run has not started): not delivered, as under Inngest.
    const { ids } = await inngest.send({ name: "test/flow.start", data: { key: k } });
    await inngest.send({ name: "test/flow.reply", data: { key: k, answer: "early" } });
    await jobs.drain();
    // Another key's reply does not match.
    await inngest.send({ name: "test/flow.reply", data: { key: `${k}-other`, answer: "wrong" } });
    await jobs.drain();
    expect(await runOf(ids[0]!, "t-flow")).toMatchObject({ status: "waiting" });
    await inngest.send({ name: "test/flow.reply", data: { key: k, answer: "late" } });
    await jobs.drain();
    expect(await runOf(ids[0]!, "t-flow")).toMatchObject({ status: "completed", output: { reply: { key: k, answer: "late" } } });
  });

  test('a wait whose `if` is `async.data.<path> == "<value from a step>"` is resolved by the event carrying it, and only by that one', async () => {
    const [a, b] = [key(), key()];
    const sent = [
      await inngest.send({ name: "test/provider.submit", data: { key: a } }),
      await inngest.send({ name: "test/provider.submit", data: { key: b } }),
    ];
    await jobs.drain();
    await inngest.send({ name: "test/provider.done", data: { requestId: `req_${b}`, status: "ok" } });
    await jobs.drain();
    expect(await runOf(sent[0]!.ids[0]!, "t-provider")).toMatchObject({ status: "waiting" });
    expect(await runOf(sent[1]!.ids[0]!, "t-provider")).toMatchObject({ status: "completed", output: "ok" });
    await jobs.advance("1h");
    expect(await runOf(sent[0]!.ids[0]!, "t-provider")).toMatchObject({ status: "completed", output: "timed out" });
  });

  test("waitForEvent times out to null when no event comes", async () => {
    const k = key();
    const { ids } = await inngest.send({ name: "test/flow.start", data: { key: k } });
    await jobs.drain();
    await jobs.advance("23h");
    expect(await runOf(ids[0]!, "t-flow")).toMatchObject({ status: "waiting" });
    await jobs.advance("1h");
    expect(await runOf(ids[0]!, "t-flow")).toMatchObject({ status: "completed", output: { reply: null, b: 2 } });
  });

  test("an event that arrives after the timeout passed but before the run resumed still wins", async () => {
    const k = key();
    const { ids } = await inngest.send({ name: "test/flow.start", data: { key: k } });
    await jobs.drain();
    clock.advance("2d");
    await inngest.send({ name: "test/flow.reply", data: { key: k, answer: "just in time" } });
    await jobs.drain();
    expect(await runOf(ids[0]!, "t-flow")).toMatchObject({ status: "completed", output: { reply: { answer: "just in time" } } });
  });
});

describe("delayed starts", () => {
  test("an event whose ts is ahead of the wall clock starts its runs that much later on the executor's clock; waits it resolves do not wait", async () => {
    const k = key();
    const { ids } = await inngest.send({ name: "test/pair", data: { key: k }, ts: Date.now() + 15_000 });
    await jobs.drain();
    const run = await runOf(ids[0]!, "t-pair");
    expect(run).toMatchObject({ status: "queued" });
    expect(run.nextAt!.getTime() - clock.now()).toBeGreaterThan(14_000);
    expect(run.nextAt!.getTime() - clock.now()).toBeLessThanOrEqual(15_000);
    await jobs.advance("14s");
    expect(count(`${k}:x`)).toBe(0);
    await jobs.advance("1s");
    expect(await runOf(ids[0]!, "t-pair")).toMatchObject({ status: "completed", output: "xy" });
    // A delayed event settles a wait at once ("Functions waiting for events will immediately resume").
    const w = key();
    const started = await inngest.send({ name: "test/flow.start", data: { key: w } });
    await jobs.drain();
    await inngest.send({ name: "test/flow.reply", data: { key: w, answer: 1 }, ts: Date.now() + 60_000 });
    await jobs.drain();
    expect(await runOf(started.ids[0]!, "t-flow")).toMatchObject({ status: "completed", output: { reply: { key: w, answer: 1 } } });
  });
});

describe("cancelOn", () => {
  const opsOf = async (runId: string) => (await getDb()).select().from(jobRunOps).where(eq(jobRunOps.runId, runId));

  test("the matching event cancels a run not started yet and a waiting one, in the statement that stores it; another key's run goes on", async () => {
    const [later, waiting, other] = [key(), key(), key()];
    const a = await inngest.send({ name: "test/watched.start", data: { key: later }, ts: Date.now() + 60_000 });
    const b = await inngest.send({ name: "test/watched.start", data: { key: waiting } });
    const c = await inngest.send({ name: "test/watched.start", data: { key: other } });
    await jobs.drain();
    const runs = { a: await runOf(a.ids[0]!, "t-watched"), b: await runOf(b.ids[0]!, "t-watched"), c: await runOf(c.ids[0]!, "t-watched") };
    expect(runs.a).toMatchObject({ status: "queued" });
    expect(runs.b).toMatchObject({ status: "waiting" });
    // Each run records its cancel op; the waiting one its wait too.
    const cancelOp = "cancel:generation-gateway-t-watched:0";
    expect((await opsOf(runs.a.id)).map((o) => o.stepId)).toEqual([cancelOp]);
    const waitingOps = (await opsOf(runs.b.id)).map((o) => o.stepId);
    expect(waitingOps).toHaveLength(2);
    expect(waitingOps).toContain(cancelOp);
    expect(waitingOps.find((id) => id !== cancelOp)).toMatch(/^[0-9a-f]{40}$/);

    const finished: string[] = [];
    const { runEvents } = await import("./runtime");
    const onFinished = (r: { runId: string; status: string }) => r.status === "cancelled" && finished.push(r.runId);
    runEvents.on("finished", onFinished);
    try {
      await inngest.send({ name: "test/watched.done", data: { key: later } });
      await inngest.send({ name: "test/watched.done", data: { key: waiting } });
    } finally {
      runEvents.off("finished", onFinished);
    }
    expect(finished.sort()).toEqual([runs.a.id, runs.b.id].sort());
    for (const id of [runs.a.id, runs.b.id]) {
      const db = await getDb();
      const [row] = await db.select().from(jobRuns).where(eq(jobRuns.id, id));
      expect(row).toMatchObject({ status: "cancelled", nextAt: null, lease: null, error: { name: "Cancelled" } });
      expect(row!.finishedAt).not.toBeNull();
      expect(await opsOf(id)).toEqual([]);
    }
    await jobs.runUntilIdle({ withinMs: 2 * 60 * 60_000 });
    // Neither ran on: the later one never started, the waiting one did not take the event as its wait's.
    expect([count(`${later}:look`), count(`${waiting}:after`)]).toEqual([0, 0]);
    expect(await runOf(a.ids[0]!, "t-watched")).toMatchObject({ status: "cancelled" });
    // The other key's run timed out and ended on its own, its cancel op deleted with its end.
    expect(await runOf(c.ids[0]!, "t-watched")).toMatchObject({ status: "completed", output: "timed out" });
    expect(await opsOf(runs.c.id)).toEqual([]);
  });

  test("a run cancelled while its step executes writes nothing more: the step's result is dropped", async () => {
    const k = key();
    let release!: () => void;
    gate = new Promise<void>((resolve) => (release = resolve));
    const { ids } = await inngest.send({ name: "test/watched.start", data: { key: k, held: true } });
    const draining = jobs.drain();
    const deadline = Date.now() + HANG_MS;
    while (count(`${k}:look`) === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
    expect(await runOf(ids[0]!, "t-watched")).toMatchObject({ status: "running" });
    await inngest.send({ name: "test/watched.done", data: { key: k } });
    release();
    await draining;
    const run = await runOf(ids[0]!, "t-watched");
    expect(run).toMatchObject({ status: "cancelled", steps: {}, lease: null });
    expect(await opsOf(run.id)).toEqual([]);
    await jobs.runUntilIdle({ withinMs: 2 * 60 * 60_000 });
    expect(count(`${k}:after`)).toBe(0);
  });

  test("several events at once (one transaction) cancel as one does", async () => {
    const [x, y] = [key(), key()];
    const a = await inngest.send({ name: "test/watched.start", data: { key: x }, ts: Date.now() + 60_000 });
    const b = await inngest.send({ name: "test/watched.start", data: { key: y }, ts: Date.now() + 60_000 });
    await inngest.send([
      { name: "test/watched.done", data: { key: x } },
      { name: "test/pair", data: { key: key() } },
    ]);
    expect(await runOf(a.ids[0]!, "t-watched")).toMatchObject({ status: "cancelled" });
    expect(await runOf(b.ids[0]!, "t-watched")).toMatchObject({ status: "queued" });
    await inngest.send({ name: "test/watched.done", data: { key: y } });
    expect(await runOf(b.ids[0]!, "t-watched")).toMatchObject({ status: "cancelled" });
  });
});

describe("failures", () => {
  test("a throwing step is retried with backoff, then fails the run into onFailure", async () => {
    const k = key();
    const { ids } = await inngest.send({ name: "test/flow.start", data: { key: k, failB: true } });
    await jobs.drain();
    await inngest.send({ name: "test/flow.reply", data: { key: k } });
    await jobs.drain();
    // First attempt failed; the retry waits for its backoff.
    expect(count(`${k}:b`)).toBe(1);
    expect(await runOf(ids[0]!, "t-flow")).toMatchObject({ status: "queued", attempt: 1 });
    await jobs.runUntilIdle();
    expect(count(`${k}:b`)).toBe(3); // retries: 2 → 3 attempts
    expect(count(`${k}:a`)).toBe(1);
    const run = await runOf(ids[0]!, "t-flow");
    expect(run).toMatchObject({ status: "failed", error: { message: "b broke" } });
    expect(failures).toContainEqual({ key: k, message: "b broke", functionId: "generation-gateway-t-flow" });
    const failure = await runOf(`${run.id}:failed`, "t-flow-failure");
    expect(failure).toMatchObject({ status: "completed" });
  });

  test("the first retry waits 2 s ±20 %, the second 4 s ±20 %", async () => {
    const k = key();
    const { ids } = await inngest.send({ name: "test/flow.start", data: { key: k, failB: true } });
    await jobs.drain();
    await inngest.send({ name: "test/flow.reply", data: { key: k } });
    await jobs.drain();
    const first = await runOf(ids[0]!, "t-flow");
    expect(first.nextAt!.getTime() - clock.now()).toBeGreaterThanOrEqual(1600);
    expect(first.nextAt!.getTime() - clock.now()).toBeLessThanOrEqual(2400);
    await jobs.advance(2400);
    const second = await runOf(ids[0]!, "t-flow");
    expect(second).toMatchObject({ attempt: 2 });
    expect(second.nextAt!.getTime() - clock.now()).toBeGreaterThanOrEqual(3200);
    expect(second.nextAt!.getTime() - clock.now()).toBeLessThanOrEqual(4800);
    await jobs.runUntilIdle();
  });

  test("a NonRetriableError is not retried", async () => {
    const k = key();
    const { ids } = await inngest.send({ name: "test/strict", data: { key: k } });
    await jobs.runUntilIdle();
    expect(count(`${k}:refuse`)).toBe(1);
    expect(await runOf(ids[0]!, "t-strict")).toMatchObject({
      status: "failed",
      error: { name: "NonRetriableError", message: "bad input" },
    });
    expect(failures).toContainEqual({ key: k, message: "bad input", functionId: "generation-gateway-t-strict" });
  });

  test("RetryAfterError delays the retry by what it asked for", async () => {
    const k = key();
    const { ids } = await inngest.send({ name: "test/polite", data: { key: k } });
    await jobs.drain();
    expect(count(`${k}:call`)).toBe(1);
    await jobs.advance("29m");
    expect(count(`${k}:call`)).toBe(1);
    await jobs.advance("1m");
    expect(count(`${k}:call`)).toBe(2);
    expect(await runOf(ids[0]!, "t-polite")).toMatchObject({ status: "completed", output: "ok" });
  });
});

describe("flow control", () => {
  test("two sends of the same event id produce one run", async () => {
    const k = key();
    const id = `order-${k}`;
    const [a, b] = await Promise.all([
      inngest.send({ id, name: "test/pair", data: { key: k } }),
      inngest.send({ id, name: "test/pair", data: { key: k } }),
    ]);
    await inngest.send({ id, name: "test/pair", data: { key: k } });
    expect(a.ids).toEqual([id]);
    expect(b.ids).toEqual([id]);
    await jobs.drain();
    expect(await jobs.runsForEvent(id)).toHaveLength(1);
    expect(count(`${k}:y`)).toBe(1);
  });

  test("a per-key concurrency limit of 1 holds under 20 simultaneous events", async () => {
    const group = key();
    const sends = Array.from({ length: 20 }, (_, i) =>
      inngest.send({ name: "test/limited", data: { group, user: i % 2 ? "alice" : "bob" } }),
    );
    const control = Array.from({ length: 20 }, () => inngest.send({ name: "test/unlimited", data: { group } }));
    const sent = await Promise.all([...sends, ...control]);
    await jobs.drain();
    expect(peak.get(`limited:${group}:alice`)).toBe(1);
    expect(peak.get(`limited:${group}:bob`)).toBe(1);
    // Without a limit the same load overlaps, so the assertion above can fail.
    expect(peak.get(`unlimited:${group}`)).toBeGreaterThan(1);
    for (const { ids } of sent.slice(0, 20)) expect(await runOf(ids[0]!, "t-limited")).toMatchObject({ status: "completed" });
  });
});

describe("waiting for a result", () => {
  test("waitForEventRun resolves with the output as soon as the run finishes", async () => {
    const k = key();
    const { ids } = await inngest.send({ name: "test/pair", data: { key: k } });
    // A minute's poll: only the notice of the run's end answers before HANG_MS, however long the drain takes.
    const waiting = waitForEventRun(ids[0]!, { functionId: "t-pair", timeoutMs: HANG_MS, pollMs: 60_000 });
    await jobs.drain();
    await expect(waiting).resolves.toMatchObject({ status: "completed", output: "xy" });
  });
});

describe("races", () => {
  test("an event settling a wait while its timeout holds the run waits for the run, then finds the wait gone: no deadlock", async () => {
    const k = key();
    const { ids } = await inngest.send({ name: "test/flow.start", data: { key: k } });
    await jobs.drain();
    const run = await runOf(ids[0]!, "t-flow");
    const db = await getDb();
    const [op] = await db.select().from(jobRunOps).where(eq(jobRunOps.runId, run.id));
    let timeoutHolds!: () => void;
    const held = new Promise<void>((resolve) => (timeoutHolds = resolve));
    // As the timeout does (run-driver): the run's row, then the wait's.
    const timeout = db.transaction(async (tx) => {
      await tx.select({ id: jobRuns.id }).from(jobRuns).where(eq(jobRuns.id, run.id)).for("update");
      timeoutHolds();
      await new Promise((r) => setTimeout(r, 300));
      return tx
        .delete(jobRunOps)
        .where(and(eq(jobRunOps.runId, run.id), eq(jobRunOps.stepId, op!.stepId)))
        .returning({ stepId: jobRunOps.stepId });
    });
    await held;
    const event = db.transaction((tx) => resolveWait(tx, run.id, op!.stepId, { type: "data", data: { answer: "late" } }, Date.now()));
    const [byTimeout, byEvent] = await Promise.all([timeout, event]);
    expect(byTimeout).toHaveLength(1);
    expect(byEvent).toBe(false);
  });

  test("an event that resolves a wait the moment it is recorded is not lost, held or parked", async () => {
    const k = key();
    let sent = false;
    // The bookkeeping database's getter sends the reply the moment the wait exists, before the
    // executor's next statement: the one parking the run if recording did not park it, else the loop's.
    const racing = await startTestExecutor({
      functions,
      clock,
      eventsDb: getDb,
      db: async () => {
        const db = await getDb();
        if (!sent) {
          const [held] = await db
            .select({ id: jobRuns.id })
            .from(jobRuns)
            .innerJoin(jobRunOps, eq(jobRunOps.runId, jobRuns.id))
            .where(
              and(
                inArray(jobRuns.status, ["running", "waiting"]),
                eq(jobRunOps.eventName, "test/flow.reply"),
                sql`${jobRuns.event}->'data'->>'key' = ${k}`,
              ),
            );
          if (held) {
            sent = true;
            await inngest.send({ name: "test/flow.reply", data: { key: k, answer: "raced" } });
          }
        }
        return db;
      },
    });
    try {
      const { ids } = await inngest.send({ name: "test/flow.start", data: { key: k } });
      await racing.drain();
      expect(sent).toBe(true);
      expect(await runOf(ids[0]!, "t-flow")).toMatchObject({ status: "completed", output: { reply: { answer: "raced" } } });
    } finally {
      racing.uninstall();
      installExecutor(jobs);
    }
  });
});
