import { and, eq } from "drizzle-orm";
import { describe, expect, test } from "vitest";
import { getDb } from "@/db/client";
import { jobRuns } from "@/db/schema";
import { inngest } from "@/lib/jobs/client";
import { ManualClock } from "./clock";
import { startTestExecutor } from "./testing";

// Test-only functions. Step bodies count completed executions; `holds` can keep a body in flight.
const done = new Map<string, number>();
const bump = (key: string) => done.set(key, (done.get(key) ?? 0) + 1);
const count = (key: string) => done.get(key) ?? 0;
const holds = new Map<string, Promise<void>>();
let seq = 0;
const key = () => `r${Date.now().toString(36)}${seq++}`;

const restartable = inngest.createFunction(
  { id: "t-restartable", retries: 1, triggers: [{ event: "test/restartable" }] },
  async ({ event, step }) => {
    const k: string = event.data.key;
    await step.run("one", () => bump(`${k}:one`));
    await step.run("two", async () => {
      bump(`${k}:two:entered`);
      await holds.get(k);
      bump(`${k}:two`);
      return "two";
    });
    await step.waitForEvent("rest", { event: "test/never", timeout: "10m" });
    await step.run("three", () => bump(`${k}:three`));
    return "finished";
  },
);

const overlaps = { active: 0, peak: 0 };
const shared = inngest.createFunction(
  { id: "t-shared", concurrency: { key: "event.data.account", limit: 1 }, triggers: [{ event: "test/shared" }] },
  async ({ step }) => {
    await step.run("work", async () => {
      overlaps.peak = Math.max(overlaps.peak, ++overlaps.active);
      await new Promise((resolve) => setTimeout(resolve, 3));
      overlaps.active--;
    });
  },
);

const functions = [restartable, shared];

async function runFor(eventId: string) {
  const db = await getDb();
  const [run] = await db
    .select()
    .from(jobRuns)
    .where(and(eq(jobRuns.eventId, eventId), eq(jobRuns.functionId, "generation-gateway-t-restartable")));
  return run!;
}

describe("restarts", () => {
  test("a run interrupted mid-step finishes on a new executor over the same database, no completed step running twice", async () => {
    const clock = new ManualClock();
    const first = await startTestExecutor({ functions, clock });
    const k = key();
    holds.set(k, new Promise(() => {})); // the first executor's step never returns: it "crashes" mid-step
    const { ids } = await inngest.send({ name: "test/restartable", data: { key: k } });
    void first.drain();
    await expect.poll(() => count(`${k}:two:entered`), { timeout: 15_000 }).toBe(1);
    first.kill();
    holds.delete(k);

    const second = await startTestExecutor({ functions, clock });
    await second.drain();
    // The dead executor's lease has not expired yet: nobody may take the run over.
    expect(await runFor(ids[0]!)).toMatchObject({ status: "running" });
    expect(count(`${k}:two:entered`)).toBe(1);
    await second.advance("31s");
    expect(await runFor(ids[0]!)).toMatchObject({ status: "waiting" });
    await second.advance("10m");
    expect(await runFor(ids[0]!)).toMatchObject({ status: "completed", output: "finished" });
    expect([count(`${k}:one`), count(`${k}:two`), count(`${k}:three`)]).toEqual([1, 1, 1]);
    second.uninstall();
  });

  test("a holder that lost its lease writes nothing when its step finally returns", async () => {
    const clock = new ManualClock();
    const slow = await startTestExecutor({ functions, clock });
    const k = key();
    let release!: () => void;
    holds.set(k, new Promise<void>((resolve) => (release = resolve)));
    const { ids } = await inngest.send({ name: "test/restartable", data: { key: k } });
    const slowDrain = slow.drain();
    await expect.poll(() => count(`${k}:two:entered`), { timeout: 15_000 }).toBe(1);
    holds.delete(k);

    // The lease runs out (a long pause, a partition); another instance takes over and finishes.
    clock.advance("31s");
    const other = await startTestExecutor({ functions, clock });
    await other.drain();
    await other.advance("10m");
    const finished = await runFor(ids[0]!);
    expect(finished).toMatchObject({ status: "completed", output: "finished" });

    // Now the stale holder's step returns: its result is discarded, the run stays as it was.
    release();
    await slowDrain;
    expect(await runFor(ids[0]!)).toEqual(finished);
    expect(count(`${k}:three`)).toBe(1);
    other.uninstall();
  });

  test("a run waiting when its executor stopped is resumed by the next one", async () => {
    const clock = new ManualClock();
    const first = await startTestExecutor({ functions, clock });
    const k = key();
    const { ids } = await inngest.send({ name: "test/restartable", data: { key: k } });
    await first.drain();
    expect(await runFor(ids[0]!)).toMatchObject({ status: "waiting" });
    await first.stop();

    const second = await startTestExecutor({ functions, clock });
    await second.advance("10m");
    expect(await runFor(ids[0]!)).toMatchObject({ status: "completed" });
    expect([count(`${k}:one`), count(`${k}:two`), count(`${k}:three`)]).toEqual([1, 1, 1]);
    second.uninstall();
  });

  test("four executors over one database never run more than the concurrency limit at once", async () => {
    const clock = new ManualClock();
    // One run each at a time: their claims race each other for every run.
    const executors = await Promise.all(Array.from({ length: 4 }, () => startTestExecutor({ functions, clock, concurrency: 1 })));
    const account = key();
    const sent = await Promise.all(Array.from({ length: 20 }, () => inngest.send({ name: "test/shared", data: { account } })));
    for (let round = 0; round < 100; round++) {
      await Promise.all(executors.map((e) => e.drain()));
      if ((await executors[0]!.activeRunCount()) === 0) break;
      clock.advance("5s");
    }
    expect(overlaps.peak).toBe(1);
    const db = await getDb();
    const runs = await db.select().from(jobRuns).where(eq(jobRuns.functionId, "generation-gateway-t-shared"));
    expect(runs.filter((r) => sent.some((s) => s.ids[0] === r.eventId) && r.status === "completed")).toHaveLength(20);
    executors.at(-1)!.uninstall();
  });
});
