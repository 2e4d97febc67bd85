/**
 * `npx tsx bench/jobs.ts [pglite|postgres]`: the embedded job executor, in-process, on a fresh
 * database (PGlite in memory, or a new PostgreSQL database at BENCH_DATABASE_URL). Every figure
 * is printed beside baselines measured in the same run: one database round trip, and one signed
 * call into the serve() handler (the SDK's own cost, which the executor pays per step).
 */
import canonicalize from "canonicalize";
import { PGlite } from "@electric-sql/pglite";
import { sql } from "drizzle-orm";
import postgres from "postgres";
import { pgliteDb, postgresHandle, setDbHandle, type DbHandle } from "../db/client";
import { migrateDatabase } from "../db/migrate";
import { table, type Row } from "./lib/report";

process.env.LOG_LEVEL ??= "error";
const kind = process.argv[2] === "postgres" ? "postgres" : "pglite";
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 200);

const pct = (xs: number[], p: number) => {
  const sorted = [...xs].sort((a, b) => a - b);
  return Number(sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!.toFixed(2));
};

async function openDatabase(): Promise<{ handle: DbHandle; url?: string; drop: () => Promise<void> }> {
  if (kind === "pglite") {
    const client = await PGlite.create();
    const db = pgliteDb(client);
    await migrateDatabase({ kind: "pglite", db });
    return { handle: { db, kind: "pglite", close: () => client.close() }, drop: async () => {} };
  }
  const base = process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
  const name = `gw_bench_jobs_${process.pid}`;
  const admin = postgres(base, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database "${name}"`);
  const url = new URL(base);
  url.pathname = `/${name}`;
  await migrateDatabase({ kind: "postgres", url: url.toString() });
  return {
    handle: postgresHandle(url.toString(), 10),
    url: url.toString(),
    drop: async () => {
      await admin.unsafe(`drop database if exists "${name}" with (force)`);
      await admin.end();
    },
  };
}

async function timed(n: number, fn: () => Promise<unknown>) {
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    await fn();
    times.push(performance.now() - t0);
  }
  return times;
}

async function main() {
  const { handle, url, drop } = await openDatabase();
  setDbHandle(handle);
  // Imported after the database is installed: these modules read it lazily, but keep it explicit.
  const { inngest } = await import("../lib/jobs/client");
  const { systemClock } = await import("../lib/jobs/clock");
  const { startTestExecutor } = await import("../lib/jobs/testing");
  const { waitForEventRun } = await import("../lib/jobs/results");
  const { signBody } = await import("../lib/jobs/protocol");
  const { bookkeepingDb } = await import("../lib/jobs/runtime");

  const oneStep = inngest.createFunction({ id: "bench-one-step", triggers: [{ event: "bench/one" }] }, async ({ event, step }) =>
    step.run("work", () => ({ n: event.data.n })),
  );
  const threeSteps = inngest.createFunction({ id: "bench-three-steps", triggers: [{ event: "bench/three" }] }, async ({ event, step }) => {
    const a = await step.run("a", () => Number(event.data.n));
    const b = await step.run("b", () => a + 1);
    return step.run("c", () => b + 1);
  });
  // As in production: on PostgreSQL the bookkeeping pool commits asynchronously, sends do not.
  const bookkeeping = url ? bookkeepingDb(url) : undefined;
  const jobs = await startTestExecutor({
    functions: [oneStep, threeSteps],
    manual: false,
    clock: systemClock,
    concurrency: 16,
    ...(bookkeeping ? { db: bookkeeping, eventsDb: async () => handle.db } : {}),
  });
  jobs.start();

  // Baseline 1: one database round trip.
  const db = handle.db;
  await timed(50, () => db.execute(sql`select 1`));
  const roundTrip = await timed(ROUNDS, () => db.execute(sql`select 1`));

  // Baseline 2: one signed in-process call into serve() that runs a step (what each step costs in the SDK).
  const key = inngest.signingKey!;
  const event = { id: "e", name: "bench/one", data: { n: 1 }, ts: Date.now() };
  const sdkCall = async () => {
    const body = canonicalize({
      event,
      events: [event],
      steps: {},
      ctx: {
        run_id: "r",
        attempt: 0,
        max_attempts: 4,
        disable_immediate_execution: false,
        use_api: false,
        stack: { stack: [], current: 0 },
      },
      version: 2,
    })!;
    const res = await jobs.handler.POST(
      new Request("http://jobs.embedded/api/inngest?fnId=generation-gateway-bench-one-step&stepId=step", {
        method: "POST",
        body,
        headers: { "content-type": "application/json", "x-inngest-signature": signBody(body, key) },
      }) as never,
      undefined,
    );
    await res.text();
  };
  await timed(50, sdkCall);
  const sdk = await timed(ROUNDS, sdkCall);

  // Send → result, one at a time (what a synchronous request waiting on a job sees).
  const sendAndWait = (name: string, fn: string) => async () => {
    const { ids } = await inngest.send({ name, data: { n: 1 } });
    await waitForEventRun(ids[0]!, { functionId: fn, timeoutMs: 30_000 });
  };
  await timed(20, sendAndWait("bench/one", "bench-one-step"));
  const one = await timed(ROUNDS, sendAndWait("bench/one", "bench-one-step"));
  const three = await timed(ROUNDS, sendAndWait("bench/three", "bench-three-steps"));

  // Throughput: 16 senders, each waiting for its run before sending the next.
  const total = ROUNDS * 2;
  let left = total;
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: 16 }, async () => {
      while (left-- > 0) await sendAndWait("bench/one", "bench-one-step")();
    }),
  );
  const seconds = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  const cpuMsPerRun = (cpu.user + cpu.system) / 1000 / total;

  const rows: Row[] = [
    { what: "baseline: database round trip (select 1)", "p50 ms": pct(roundTrip, 50), "p99 ms": pct(roundTrip, 99) },
    { what: "baseline: one signed serve() call running a step", "p50 ms": pct(sdk, 50), "p99 ms": pct(sdk, 99) },
    { what: "send → result, 1-step function (2 calls)", "p50 ms": pct(one, 50), "p99 ms": pct(one, 99) },
    { what: "send → result, 3-step function (4 calls)", "p50 ms": pct(three, 50), "p99 ms": pct(three, 99) },
  ];
  table(`Embedded executor on ${kind} (${ROUNDS} rounds, concurrency 1)`, rows);
  table(`Throughput on ${kind}`, [
    {
      what: "1-step runs, 16 concurrent senders",
      "runs/s": Math.round(total / seconds),
      // CPU of this process per run (PGlite's work included; PostgreSQL's server is not): robust to a busy machine.
      "app CPU ms/run": Number(cpuMsPerRun.toFixed(2)),
    },
  ]);

  await jobs.stop();
  jobs.uninstall();
  await handle.close();
  await drop();
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
