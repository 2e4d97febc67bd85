import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import http from "node:http";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { drizzle } from "drizzle-orm/postgres-js";
import postgres from "postgres";
import type { Db } from "@/db/client";
import * as schema from "@/db/schema";
import { apiKeys, users } from "@/db/schema";
import { generateApiKey } from "@/lib/auth/api-key";
import { grantCredits } from "@/lib/billing/ledger/ledger";
import { agent, call, openStream, sleep, type Answer, type SseClient, type SseEvent } from "../lib/clients";
import { load, percentile } from "../lib/load";
import { loopWindow, type LoopFigures } from "../lib/loop";
import type { Row } from "../lib/report";
import { startServer, type BenchServer } from "../lib/server";
import { assertLedger, ledgerCheck } from "./gateway";
import type { Scenario } from "./types";

/**
 * Field load (issue 18): the simulator taking seconds per job, as real providers do, against the
 * gateway holding the requests, answering status polls and keeping event streams open. Latencies
 * come from the `[latency:N]` prompt marker (simulators/local-provider/behaviour.ts), drawn per request
 * (uniform, 100 ms steps: 101 distinct prompts, so the simulator renders 101 images and serves the
 * rest from its cache); N is the simulator's own time for that job, so a sync answer's time minus
 * N is the time the gateway added. Shapes, each beside `GET /health` of the same run:
 *  a. in-flight capacity: closed-loop sync `/run` clients (starts spread over one mean latency),
 *     billed gen/s in the steady window vs the ideal clients ÷ mean latency, added time, RSS and
 *     database connections at the peak, the server's event-loop delay and GC time over the shape
 *     (its /metrics) beside the bench's own loop delay; 5–15 s × 1,024 clients, then 1–5 s × 256;
 *  b. polling: queue jobs of 120 s, each client polling its status every 500 ms (after each
 *     answer, as @fal-ai/client does). The marginal server CPU of a poll — CPU in a polling window
 *     minus the same jobs' CPU in windows without polls — against `GET /health` polled the same
 *     way during the same jobs; the windows follow the queue function's status check 16 s after
 *     submit (later under load: they start once no run was claimed for 2 s) and the run
 *     claims inside them are reported (0: no job work landed in them);
 *  c. streams: jobs of 60 s on both surfaces, each followed by two streams, one per app instance
 *     (a second `next start` on the same database); database transactions/s and server CPU
 *     while no event happens (after the last check, before the ends), then each final event's
 *     arrival minus its row's `created_at` (the ending's transaction start: an upper bound on the
 *     delay after its commit);
 *  q. cost by path: the same 24 closed-loop clients and 2 s jobs sync, then queued (submit, poll
 *     from the job's end, fetch the result): server and PostgreSQL CPU, transactions and polls per
 *     generation above the idle cost, each path alone (what makes d heavier than a at the same
 *     generations/s), alternating over BENCH_Q_ROUNDS rounds (3) with the median paired ratio;
 *  d. mixed: half sync, a quarter polling, a quarter streaming, at once, every job 5–15 s; d2 the
 *     same with the sync and polling clients spread over both instances too (one Node process per
 *     core, as deployed); d3 as d2 with the polled and streamed jobs taking c's 60 s, so each
 *     quarter makes its own shape's load (d and d2 make ~51 queued gen/s, more than b and c together).
 * Then faults: sync clients hanging up mid-run (their jobs still finish, charged once), streams
 * hung up and reopened at once (their slots are free), a poll flood on a rate-limited key (429s
 * with the standard headers, nothing else). The ledger check of the gateway bench closes the run.
 * `--quick` (or BENCH_QUICK=1) runs every shape at a smoke-test size.
 */
const MODEL = "fal-ai/flux/schnell";
const GRANT = 100_000_000;
const quick = process.argv.includes("--quick") || process.env.BENCH_QUICK === "1";
/** BENCH_FIELD_SHAPES=b,c runs only those shapes (a, b, c, q, d, d2, d3, faults); default all. */
/** BENCH_FIELD_A_SPREAD=1: shape a's clients alternate between both instances (one process per core). */
const spreadA = process.env.BENCH_FIELD_A_SPREAD === "1";
const shapes = new Set((process.env.BENCH_FIELD_SHAPES ?? "a,b,c,q,d,d2,d3,faults").split(",").map((x) => x.trim()));

const SIZES = quick
  ? {
      users: 160,
      a: { clients: 48, minMs: 5_000, maxMs: 15_000, seconds: 30, warm: 15 },
      a2: { clients: 24, minMs: 1_000, maxMs: 5_000, seconds: 12, warm: 5 },
      pollClients: 32,
      streamJobs: 40,
      mixed: { sync: 32, poll: 16, stream: 16, seconds: 30, warm: 15 },
      mixedLong: { sync: 32, poll: 16, stream: 16, seconds: 50, warm: 20, jobMs: 20_000 },
    }
  : {
      users: 1024,
      a: { clients: 1024, minMs: 5_000, maxMs: 15_000, seconds: 80, warm: 20 },
      a2: { clients: 256, minMs: 1_000, maxMs: 5_000, seconds: 40, warm: 10 },
      pollClients: 256,
      streamJobs: 500,
      mixed: { sync: 512, poll: 256, stream: 256, seconds: 80, warm: 20 },
      // d3: the steady window opens once every queued client is on its first job's rhythm.
      mixedLong: { sync: 512, poll: 256, stream: 256, seconds: 140, warm: 60, jobMs: 60_000 },
    };

/** A latency in [min, max] ms, uniform in 100 ms steps (101 distinct prompts for 5–15 s). */
const drawLatency = (minMs: number, maxMs: number) => minMs + 100 * Math.floor(Math.random() * ((maxMs - minMs) / 100 + 1));
const bodyOf = (latencyMs: number) =>
  JSON.stringify({ prompt: `field [latency:${latencyMs}]`, image_size: { width: 256, height: 256 }, seed: 1 });
const skillBodyOf = (latencyMs: number) => JSON.stringify({ model: MODEL, input: JSON.parse(bodyOf(latencyMs)), sync: false });

const stats = (values: number[]) => {
  const v = [...values].sort((a, b) => a - b);
  return {
    n: v.length,
    p50: percentile(v, 50),
    p99: percentile(v, 99),
    max: v[v.length - 1] ?? 0,
    mean: v.reduce((s, x) => s + x, 0) / Math.max(1, v.length),
  };
};
const f1 = (n: number) => n.toFixed(1);
const f2 = (n: number) => n.toFixed(2);

type Ctx = {
  a: BenchServer;
  b: BenchServer;
  keys: string[];
  pg: postgres.Sql;
  dbName: string;
  /** Server CPU ms of one GET /health at c16 (closed loop), this run. */
  healthCpuMs: number;
};

async function seed(databaseUrl: string, n: number) {
  const client = postgres(databaseUrl, { max: 4, onnotice: () => {} });
  const db = drizzle(client, { schema }) as unknown as Db;
  const stamp = Date.now();
  const made = await db
    .insert(users)
    .values(Array.from({ length: n + 1 }, (_, i) => ({ email: `field-${i}-${stamp}@example.test` })))
    .returning({ id: users.id });
  const keys: string[] = [];
  const rows = made.map((u, i) => {
    const key = generateApiKey("live");
    keys.push(key.key);
    // The last key keeps its rate limit on (the poll flood); the others have it off.
    return {
      id: `key_field_${i}`,
      userId: u.id,
      name: "field",
      hash: key.hash,
      prefix: key.prefix,
      start: key.start,
      rateLimitEnabled: i === n,
    };
  });
  await db.insert(apiKeys).values(rows);
  for (const u of made) await grantCredits(db, { userId: u.id, credits: GRANT, type: "grant", idempotencyKey: `field-grant:${u.id}` });
  return { keys, client };
}

/** Peak RSS (both instances) and database connections, sampled every second while `during` runs. */
async function sampled<T>(ctx: Ctx, during: () => Promise<T>) {
  // lockWaits: backends waiting on a lock at a sample; longestMs: the longest-running statement seen
  // (a statement waiting holds up those postgres-js pipelined behind it on the same connection).
  const peak = { rssMb: 0, connections: 0, active: 0, lockWaits: 0, longestMs: 0, longest: "" };
  let on = true;
  const loop = (async () => {
    while (on) {
      const [row] = await ctx.pg`select count(*)::int as n, count(*) filter (where state = 'active')::int as active,
          count(*) filter (where wait_event_type = 'Lock')::int as lock_waits,
          coalesce(max(extract(epoch from clock_timestamp() - query_start) * 1000) filter (where state = 'active' and pid <> pg_backend_pid()), 0)::float8 as longest_ms,
          (array_agg(left(query, 120) order by query_start) filter (where state = 'active' and pid <> pg_backend_pid()))[1] as longest
        from pg_stat_activity where datname = ${ctx.dbName}`;
      peak.connections = Math.max(peak.connections, row!.n as number);
      peak.active = Math.max(peak.active, row!.active as number);
      peak.lockWaits = Math.max(peak.lockWaits, row!.lock_waits as number);
      if ((row!.longest_ms as number) > peak.longestMs) {
        peak.longestMs = row!.longest_ms as number;
        peak.longest = (row!.longest as string | null) ?? "";
      }
      peak.rssMb = Math.max(peak.rssMb, ctx.a.rssMb() + ctx.b.rssMb());
      await sleep(1000);
    }
  })();
  try {
    return { result: await during(), peak };
  } finally {
    on = false;
    await loop;
  }
}

/**
 * Drops the kept-alive sockets left by the previous shape: the server closes a socket idle for 5 s
 * (Node's keepAliveTimeout), and a request sent on one it is closing fails with ECONNRESET.
 */
const freshSockets = () => agent.destroy();

const serverCpu = (ctx: Ctx) => ctx.a.cpu().server + ctx.b.cpu().server;

/** Busy CPU seconds of the whole machine so far, all cores (Linux /proc/stat: all but idle and iowait). */
function machineBusy(): number {
  const ticks = readFileSync("/proc/stat", "utf8").split("\n", 1)[0]!.trim().split(/\s+/).slice(1).map(Number);
  const total = ticks.reduce((sum, t) => sum + t, 0);
  return (total - ticks[3]! - ticks[4]!) / 100; // clock ticks (USER_HZ = 100)
}

/**
 * Where the machine's CPU went while `during` ran: both servers, PostgreSQL, this process (the
 * load generator), and the machine as a whole, in cores (CPU-s per second), beside its core count.
 */
async function cpuShares<T>(ctx: Ctx, during: () => Promise<T>) {
  const t0 = performance.now();
  const before = { server: serverCpu(ctx), pg: ctx.a.cpu().postgres, bench: process.cpuUsage(), machine: machineBusy() };
  const result = await during();
  const seconds = (performance.now() - t0) / 1000;
  const bench = process.cpuUsage(before.bench);
  const cores = (cpuS: number) => cpuS / seconds;
  return {
    result,
    shares: {
      seconds,
      servers: cores(serverCpu(ctx) - before.server),
      postgres: cores(ctx.a.cpu().postgres - before.pg),
      bench: cores((bench.user + bench.system) / 1e6),
      machine: cores(machineBusy() - before.machine),
      of: availableParallelism(),
    },
  };
}

/** Scans (sequential + index) and row writes per table so far, from PostgreSQL's statistics. */
async function tableActivity(ctx: Ctx): Promise<Map<string, number>> {
  const rows =
    await ctx.pg`select relname, (coalesce(seq_scan, 0) + coalesce(idx_scan, 0) + n_tup_ins + n_tup_upd + n_tup_del)::bigint::text as n from pg_stat_user_tables`;
  return new Map(rows.map((r) => [r.relname as string, Number(r.n)]));
}
const activityBetween = (a: Map<string, number>, b: Map<string, number>) =>
  Object.fromEntries(
    [...b]
      .map(([t, n]) => [t, n - (a.get(t) ?? 0)] as const)
      .filter(([, n]) => n > 0)
      .sort((x, y) => y[1] - x[1]),
  );

/**
 * Transactions that wrote, counted by the next transaction id (cluster-wide: the bench's machine
 * is quiet otherwise). Exact at any moment, where pg_stat_database's counts come in as each
 * backend reports them: seconds late, and up to a minute when backends contend for the report.
 */
async function writeTransactions(ctx: Ctx): Promise<number> {
  const [row] = await ctx.pg`select pg_snapshot_xmax(pg_current_snapshot())::text as n`;
  return Number(row!.n);
}

async function transactions(ctx: Ctx): Promise<number> {
  const [row] = await ctx.pg`select (xact_commit + xact_rollback)::bigint::text as n from pg_stat_database where datname = ${ctx.dbName}`;
  return Number(row!.n);
}

// ---------------------------------------------------------------------------------------------
// a. In-flight capacity: closed-loop sync clients.

/** `hrUs`: the monotonic clock at the answer (µs), the clock of a server's CPU profile. */
type SyncRecord = { end: number; latencyMs: number; ms: number; status: number; timing?: string; hrUs?: number };

async function syncClients(o: {
  /** Client i calls `urls[i % urls.length]`. */
  urls: string[];
  keys: string[];
  clients: number;
  minMs: number;
  maxMs: number;
  seconds: number;
  keyOffset?: number;
}) {
  const started = performance.now();
  const stopAt = started + o.seconds * 1000;
  const rampMs = (o.minMs + o.maxMs) / 2;
  const records: SyncRecord[] = [];
  await Promise.all(
    Array.from({ length: o.clients }, async (_, i) => {
      const key = o.keys[((o.keyOffset ?? 0) + i) % o.keys.length]!;
      await sleep(Math.random() * rampMs);
      while (performance.now() < stopAt) {
        const latencyMs = drawLatency(o.minMs, o.maxMs);
        const a = await call(o.urls[i % o.urls.length]!, { key, body: bodyOf(latencyMs) });
        const timing = a.headers["server-timing"];
        records.push({
          end: performance.now() - started,
          latencyMs,
          ms: a.ms,
          status: a.status,
          timing: typeof timing === "string" ? timing : undefined,
          hrUs: Number(process.hrtime.bigint() / 1000n),
        });
      }
    }),
  );
  return records;
}

function syncFigures(records: SyncRecord[], o: { clients: number; seconds: number; warm: number }) {
  const ok = records.filter((r) => r.status === 200);
  const inWindow = ok.filter((r) => r.end >= o.warm * 1000 && r.end < o.seconds * 1000).length;
  const meanLatency = records.reduce((s, r) => s + r.latencyMs, 0) / Math.max(1, records.length) / 1000;
  const rate = inWindow / (o.seconds - o.warm);
  const ideal = o.clients / meanLatency;
  const added = stats(ok.map((r) => r.ms - r.latencyMs));
  // The steady window only (past the ramp and the simulator's first renders of each prompt).
  const addedSteady = stats(ok.filter((r) => r.end >= o.warm * 1000 && r.end < o.seconds * 1000).map((r) => r.ms - r.latencyMs));
  const statuses: Record<number, number> = {};
  for (const r of records) statuses[r.status] = (statuses[r.status] ?? 0) + 1;
  return {
    requests: records.length,
    ok: ok.length,
    errors: records.length - ok.length,
    statuses,
    rate,
    ideal,
    ratio: rate / ideal,
    meanLatency,
    added,
    addedSteady,
    answer: stats(ok.map((r) => r.ms)),
    inWindow,
  };
}

/**
 * The floor under a shape's latencies: one client asking `GET /health` of each server every 100 ms
 * while `during` runs (from `warmMs` on: the steady window), timing what a request that does no work
 * waits on the same loaded server at that moment (the event loop, GC pauses, the machine's cores).
 */
async function healthFloor<T>(servers: BenchServer[], warmMs: number, during: () => Promise<T>) {
  const answers: number[] = [];
  let on = true;
  const probes = servers.map(async (server) => {
    await sleep(warmMs);
    while (on) {
      const a = await call(`${server.baseUrl}/health`);
      if (on && a.status === 200) answers.push(a.ms);
      await sleep(100);
    }
  });
  try {
    return { result: await during(), floor: stats(answers) };
  } finally {
    on = false;
    await Promise.all(probes);
  }
}

async function inFlight(
  ctx: Ctx,
  o: { clients: number; minMs: number; maxMs: number; seconds: number; warm: number },
  rows: Row[],
  label: string,
) {
  freshSockets();
  const cpu0 = serverCpu(ctx);
  const t0 = performance.now();
  const window = await loopWindow(ctx.a);
  const {
    result: { result: records, floor },
    peak,
  } = await sampled(ctx, () =>
    healthFloor(spreadA ? [ctx.a, ctx.b] : [ctx.a], o.warm * 1000, () =>
      syncClients({
        urls: spreadA ? [ctx.a, ctx.b].map((s) => `${s.baseUrl}/run/${MODEL}`) : [`${ctx.a.baseUrl}/run/${MODEL}`],
        keys: ctx.keys,
        ...o,
      }),
    ),
  );
  const loop = await window.end();
  const cpuMs = ((serverCpu(ctx) - cpu0) * 1000) / Math.max(1, records.length);
  const fig = syncFigures(records, o);
  // BENCH_FIELD_RAW=<dir>: every answer of the shape (end, simulator latency, answer ms, Server-Timing) as JSON lines.
  if (process.env.BENCH_FIELD_RAW) {
    mkdirSync(process.env.BENCH_FIELD_RAW, { recursive: true });
    writeFileSync(
      path.join(process.env.BENCH_FIELD_RAW, `${label.slice(0, 1)}-${o.clients}.jsonl`),
      records.map((r) => JSON.stringify(r)).join("\n"),
    );
  }
  rows.push({
    shape: label,
    "billed gen/s": f1(fig.rate),
    "ideal gen/s": f1(fig.ideal),
    "÷ ideal": f2(fig.ratio),
    "added p50 ms": f1(fig.added.p50),
    "added p99 ms": f1(fig.added.p99),
    "steady added p50 / p99 ms": `${f1(fig.addedSteady.p50)} / ${f1(fig.addedSteady.p99)}`,
    "/health meanwhile p50 / p99 ms": `${f1(floor.p50)} / ${f1(floor.p99)}`,
    "answer p99 ms": Math.round(fig.answer.p99),
    errors: fig.errors,
    "server CPU ms/gen (× /health)": `${f2(cpuMs)} (${f1(cpuMs / ctx.healthCpuMs)})`,
    "peak RSS MB": Math.round(peak.rssMb),
    "peak DB conns (active)": `${peak.connections} (${peak.active})`,
    "server loop delay p99 / max ms": `${f1(loop.server.p99)} / ${f1(loop.server.max)}`,
    "server GC ms/s (major)": `${f1(loop.gc.msPerSecond)} (${loop.gc.major})`,
    "bench loop delay p99 / max ms": `${f1(loop.bench.p99)} / ${f1(loop.bench.max)}`,
  });
  return { ...fig, cpuMs, peak, loop, floor, seconds: (performance.now() - t0) / 1000 };
}

// ---------------------------------------------------------------------------------------------
// b. Polling.

type Poll = { ms: number; status: number; at: number };

async function submitQueued(base: string, key: string, latencyMs: number): Promise<{ id: string; statusUrl: string; responseUrl: string }> {
  const a = await call(`${base}/queue/${MODEL}`, { key, body: bodyOf(latencyMs) });
  if (a.status !== 200) throw new Error(`queue submit: ${a.status} ${a.body.slice(0, 200)}`);
  const body = JSON.parse(a.body) as { request_id: string; status_url: string; response_url: string };
  return { id: body.request_id, statusUrl: body.status_url, responseUrl: body.response_url };
}

async function submitSkill(base: string, key: string, latencyMs: number): Promise<string> {
  const a = await call(`${base}/api/v1/generate`, { key, body: skillBodyOf(latencyMs) });
  if (a.status !== 200 && a.status !== 202) throw new Error(`skill submit: ${a.status} ${a.body.slice(0, 200)}`);
  const body = JSON.parse(a.body) as { id?: string; request_id?: string; requestId?: string };
  return (body.id ?? body.request_id ?? body.requestId)!;
}

/**
 * One queue client: polls `target()` every 500 ms after each answer until its job completed
 * (judged from status polls), then fetches the result.
 */
async function pollUntilDone(
  statusUrl: string,
  responseUrl: string,
  key: string,
  polls: Poll[],
  target: () => "status" | "health" | "pause",
  healthUrl: string,
) {
  const giveUpAt = performance.now() + 180_000;
  for (;;) {
    if (performance.now() > giveUpAt) throw new Error(`queue job not completed after 180 s: ${statusUrl}`);
    const mode = target();
    // A paused client skips a poll but keeps its cadence: resuming on a short tick would bunch
    // all clients' next polls into one burst, which no real population of clients makes.
    if (mode === "pause") {
      await sleep(500);
      continue;
    }
    const a = await call(mode === "status" ? statusUrl : healthUrl, { key: mode === "status" ? key : undefined });
    if (mode === "status") {
      polls.push({ ms: a.ms, status: a.status, at: performance.now() });
      const status = a.status === 200 ? (JSON.parse(a.body) as { status: string }).status : null;
      if (status === "completed") break;
      if (status === "failed" || status === "cancelled") throw new Error(`queue job ${status}: ${a.body.slice(0, 200)}`);
    } else healthPolls.push({ ms: a.ms, status: a.status, at: performance.now() });
    await sleep(500);
  }
  const result = await call(responseUrl, { key });
  if (result.status !== 200) throw new Error(`queue result: ${result.status} ${result.body.slice(0, 200)}`);
}
let healthPolls: Poll[] = [];

/** How many times job runs were claimed so far: each queue-function status check claims its run. */
async function claims(ctx: Ctx): Promise<number> {
  const [row] = await ctx.pg`select coalesce(sum(claims), 0)::bigint::text as n from job_runs`;
  return Number(row!.n);
}

/**
 * Waits until `from` (ms, performance clock) and then until no run was claimed for `stillMs`: the
 * status checks' bursts (256 jobs × ≈8 ms of server CPU each) are over. Gives up at `latest`.
 */
async function afterChecks(ctx: Ctx, from: number, latest: number, stillMs = 2_000) {
  await sleep(from - performance.now());
  let last = await claims(ctx);
  let since = performance.now();
  while (performance.now() - since < stillMs && performance.now() < latest) {
    await sleep(250);
    const now = await claims(ctx);
    if (now !== last) {
      last = now;
      since = performance.now();
    }
  }
}

/** Queue jobs of shape b: the windows fall between the function's checks at 16 and 76 s. */
const POLL_JOB_MS = 120_000;

async function polling(ctx: Ctx, rows: Row[]) {
  freshSockets();
  const n = SIZES.pollClients;
  const keyOf = (i: number) => ctx.keys[(256 + i) % SIZES.users]!;
  healthPolls = [];
  const polls: Poll[] = [];
  let mode: "status" | "health" | "pause" = "status";
  const t0 = performance.now();
  // Each client starts polling as soon as its own submit is answered (as @fal-ai/client does), so
  // the population's polls stay spread over the 500 ms period instead of arriving in one burst.
  let submits = 0;
  let allSubmitted!: () => void;
  const submittedAll = new Promise<void>((r) => (allSubmitted = r));
  const clients = Array.from({ length: n }, async (_, i) => {
    await sleep((i * 1000) / n);
    const j = await submitQueued(ctx.a.baseUrl, keyOf(i), POLL_JOB_MS);
    if (++submits === n) allSubmitted();
    await pollUntilDone(j.statusUrl, j.responseUrl, keyOf(i), polls, () => mode, `${ctx.a.baseUrl}/health`);
  });
  await Promise.race([submittedAll, Promise.all(clients)]); // a failed submit ends the shape
  const submitted = performance.now();
  const window = async (seconds: number) => {
    // The monotonic clock (µs) lines the windows up with the servers' --trace-gc (BENCH_TRACE_GC=1).
    console.log(`field b: ${mode} window of ${seconds} s from hrtime ${process.hrtime.bigint() / 1000n} µs`);
    const c0 = serverCpu(ctx);
    const p0 = polls.length + healthPolls.length;
    const k0 = polls.length;
    const w0 = performance.now();
    const l0 = await loopWindow(ctx.a);
    await sleep(seconds * 1000);
    return {
      loop: await l0.end(),
      cpu: serverCpu(ctx) - c0,
      polls: polls.length + healthPolls.length - p0,
      seconds: (performance.now() - w0) / 1000,
      statusFrom: k0,
      statusTo: polls.length,
    };
  };
  // The queue function checks each job's status 0, 1, 16 and 76 s after its submit (later under
  // load: each burst delays the next); the windows follow the 16 s check's burst,
  // bracketed by two windows without polls, and the run claims during them are counted (0: no
  // job work inside). Polls go on between the windows, as clients do.
  await afterChecks(ctx, submitted + 18_000, submitted + 32_000);
  const claims0 = await claims(ctx);
  const windowsFrom = (performance.now() - submitted) / 1000;
  mode = "pause";
  const quiet1 = await window(6);
  mode = "status";
  const status = await window(10);
  mode = "health";
  const health = await window(10);
  mode = "pause";
  const quiet2 = await window(6);
  mode = "status";
  const claimsInWindows = (await claims(ctx)) - claims0;
  const idleRate = (quiet1.cpu + quiet2.cpu) / (quiet1.seconds + quiet2.seconds);
  const per = (w: { cpu: number; seconds: number; polls: number }) => ((w.cpu - idleRate * w.seconds) * 1000) / Math.max(1, w.polls);
  await Promise.all(clients);
  const s = stats(polls.map((p) => p.ms));
  const inWindow = stats(polls.slice(status.statusFrom, status.statusTo).map((p) => p.ms));
  const h = stats(healthPolls.map((p) => p.ms));
  const errors = polls.filter((p) => p.status !== 200).length + healthPolls.filter((p) => p.status !== 200).length;
  const statusMs = per(status);
  const healthMs = per(health);
  // BENCH_FIELD_RAW=<dir>: every poll of the shape (what, when it ended, answer ms, status) as JSON lines.
  if (process.env.BENCH_FIELD_RAW) {
    mkdirSync(process.env.BENCH_FIELD_RAW, { recursive: true });
    const lines = [...polls.map((p) => ({ what: "status", ...p })), ...healthPolls.map((p) => ({ what: "health", ...p }))];
    writeFileSync(path.join(process.env.BENCH_FIELD_RAW, `b-${n}.jsonl`), lines.map((l) => JSON.stringify(l)).join("\n"));
  }
  rows.push({
    shape: `b. ${n} queue clients polling status every 500 ms (${POLL_JOB_MS / 1000} s jobs)`,
    polls: s.n,
    "polls/s in window": f1(status.polls / status.seconds),
    "status CPU ms/req": f2(statusMs),
    "/health CPU ms/req (same polling)": f2(healthMs),
    "× /health": f2(statusMs / healthMs),
    "status p50 / p99 ms in window (all polls)": `${f1(inWindow.p50)} / ${f1(inWindow.p99)} (${f1(s.p50)} / ${f1(s.p99)})`,
    "/health p50 / p99 ms": `${f1(h.p50)} / ${f1(h.p99)}`,
    errors,
    "idle CPU % (no polls)": f1(idleRate * 100),
    "windows from s / run claims in them": `${f1(windowsFrom)} / ${claimsInWindows}`,
    "server loop delay p99 / max ms, GC ms/s (major): status, /health windows": [status, health]
      .map((w) => `${f1(w.loop.server.p99)} / ${f1(w.loop.server.max)}, ${f1(w.loop.gc.msPerSecond)} (${w.loop.gc.major})`)
      .join("; "),
  });
  return {
    jobs: n,
    statusMs,
    healthMs,
    ratio: statusMs / healthMs,
    status: s,
    statusInWindow: inWindow,
    health: h,
    errors,
    windowsFrom,
    claimsInWindows,
    windows: { quiet1, status, health, quiet2 },
    seconds: (performance.now() - t0) / 1000,
  };
}

// ---------------------------------------------------------------------------------------------
// c. Streams.

type Followed = { job: string; instance: "A" | "B"; kind: string; client: SseClient; final?: SseEvent; finals: number };

const FINAL = new Set(["completed", "failed", "cancelled"]);
function isFinalEvent(kind: string, e: SseEvent): boolean {
  if (!e.id) return false;
  if (kind === "skill") return e.event === "completed" || e.event === "failed";
  const data = JSON.parse(e.data) as { status?: string; stage?: string };
  return FINAL.has(String(kind === "progress" ? data.stage : data.status));
}

function follow(
  ctx: Ctx,
  job: string,
  key: string,
  surface: "gateway" | "skill",
  kind: "status" | "progress" | "skill",
  instance: "A" | "B",
): Followed {
  const base = (instance === "A" ? ctx.a : ctx.b).baseUrl;
  const url =
    kind === "skill"
      ? `${base}/api/v1/requests/${job}/stream`
      : `${base}/queue/${MODEL}/requests/${job}/${kind === "status" ? "status/stream" : "progress/stream"}`;
  const f: Followed = { job, instance, kind, finals: 0, client: undefined as unknown as SseClient };
  f.client = openStream(url, key, (e) => {
    if (isFinalEvent(kind, e)) {
      f.finals++;
      f.final ??= e;
    }
  });
  void surface;
  return f;
}

async function finalDelays(ctx: Ctx, followed: Followed[]) {
  const seqs = followed.filter((f) => f.final).map((f) => Number(f.final!.id));
  const rows =
    await ctx.pg`select seq::bigint::text as seq, (extract(epoch from created_at) * 1000)::float8 as ms from generation_events where seq = any(${seqs}::bigint[])`;
  const created = new Map(rows.map((r) => [Number(r.seq), Number(r.ms)]));
  const delays = followed.filter((f) => f.final).map((f) => f.final!.at - created.get(Number(f.final!.id))!);
  return {
    all: stats(delays),
    A: stats(followed.filter((f) => f.final && f.instance === "A").map((f) => f.final!.at - created.get(Number(f.final!.id))!)),
    B: stats(followed.filter((f) => f.final && f.instance === "B").map((f) => f.final!.at - created.get(Number(f.final!.id))!)),
  };
}

async function streams(ctx: Ctx, rows: Row[]) {
  freshSockets();
  const jobs = SIZES.streamJobs;
  const keyOf = (i: number) => ctx.keys[(512 + i) % SIZES.users]!;
  // Background: no jobs, no streams.
  await sleep(2000);
  const bg0 = { x: await transactions(ctx), cpu: serverCpu(ctx), t: performance.now() };
  await sleep(5000);
  const bgSeconds = (performance.now() - bg0.t) / 1000;
  const background = { tps: ((await transactions(ctx)) - bg0.x) / bgSeconds, cpu: (serverCpu(ctx) - bg0.cpu) / bgSeconds };
  const followed: Followed[] = [];
  const first = performance.now();
  let opened = 0;
  await Promise.all(
    Array.from({ length: jobs }, async (_, i) => {
      await sleep((i * 7000) / jobs);
      const key = keyOf(i);
      const submitVia = i % 2 === 0 ? ctx.a.baseUrl : ctx.b.baseUrl;
      const gateway = i % 2 === 0;
      const id = gateway ? (await submitQueued(submitVia, key, 60_000)).id : await submitSkill(submitVia, key, 60_000);
      const pair: Followed[] = gateway
        ? [
            follow(ctx, id, key, "gateway", i % 4 === 0 ? "status" : "progress", "A"),
            follow(ctx, id, key, "gateway", i % 4 === 0 ? "progress" : "status", "B"),
          ]
        : [follow(ctx, id, key, "skill", "skill", "A"), follow(ctx, id, key, "skill", "skill", "B")];
      followed.push(...pair);
      for (const f of pair) if ((await f.client.status) === 200) opened++;
    }),
  );
  const last = performance.now();
  // Idle: after every job's status check 16 s after its submit (later under load: the window
  // starts once no run was claimed for 2 s), before the first end (60 s; the next check is at 76 s).
  const idleTo = 58;
  await afterChecks(ctx, last + 17_500, first + (idleTo - 5) * 1000);
  let idle = { tps: NaN, cpu: NaN, seconds: 0, claims: NaN, tables: {} as Record<string, number>, tableSeconds: 0 };
  if (first + idleTo * 1000 - performance.now() >= 5_000) {
    const k0 = await claims(ctx);
    const c0 = serverCpu(ctx);
    const w0 = performance.now();
    // PostgreSQL publishes a backend's statistics (transactions, table scans) when its next
    // transaction ends a second after the last publication, or after 10 s idle
    // (PGSTAT_IDLE_INTERVAL), so those snapshots are taken up to 11 s into the window (leaving at
    // least 5 s to count): what they count is the window's own statements, not the checks that
    // ran just before it. A stream that polled would show in any second of the window.
    await sleep(Math.max(1_500, Math.min(11_000, first + idleTo * 1000 - performance.now() - 5_000)));
    const x0 = await transactions(ctx);
    const a0 = await tableActivity(ctx);
    const s0 = performance.now();
    await sleep(first + idleTo * 1000 - performance.now());
    const tables = activityBetween(a0, await tableActivity(ctx));
    const tableSeconds = (performance.now() - s0) / 1000;
    const tps = ((await transactions(ctx)) - x0) / tableSeconds;
    const seconds = (performance.now() - w0) / 1000;
    const cpu = (serverCpu(ctx) - c0) / seconds;
    idle = { tps, cpu, seconds, claims: (await claims(ctx)) - k0, tables, tableSeconds };
  }
  const ends = await Promise.race([Promise.all(followed.map((f) => f.client.ended)), sleep(120_000).then(() => null)]);
  if (!ends) for (const f of followed) f.client.close();
  const delays = await finalDelays(ctx, followed);
  const missing = followed.filter((f) => !f.final).length;
  const extra = followed.filter((f) => f.finals > 1).length;
  rows.push({
    shape: `c. ${followed.length} streams on ${jobs} jobs of 60 s, 2 instances`,
    opened: `${opened}/${followed.length}`,
    "idle window s (run claims in it)": `${f1(idle.seconds)} (${idle.claims})`,
    // What a stream reads: its job's events and row, its caller's standing.
    "stream tables touched idle (in the window's last s)": `${["generation_events", "generation_requests", "api_keys", "users", "sessions"]
      .map((t) => idle.tables[t] ?? 0)
      .join("/")} (${f1(idle.tableSeconds)})`,
    "DB xact/s idle (no streams, no jobs)": `${f1(idle.tps)} (${f1(background.tps)})`,
    "server CPU % of a core idle (no streams, no jobs)": `${f1(idle.cpu * 100)} (${f1(background.cpu * 100)})`,
    "final event delay p50 / p99 / max ms": `${f1(delays.all.p50)} / ${f1(delays.all.p99)} / ${f1(delays.all.max)}`,
    "p99 A / B ms": `${f1(delays.A.p99)} / ${f1(delays.B.p99)}`,
    "no final / >1 final": `${missing} / ${extra}`,
  });
  return { jobs, streams: followed.length, opened, idle, background, delays, missing, extra };
}

// ---------------------------------------------------------------------------------------------
// q. What a generation costs by path: why the mixed shapes need more of the machine than a.

/**
 * The same closed-loop clients and 2 s jobs sync, then queued as @fal-ai/client does it (submit,
 * poll every 500 ms from the job's end, fetch the result): server and PostgreSQL CPU, database
 * transactions and HTTP requests per generation, each path alone. 24 clients (BENCH_Q_CLIENTS)
 * keep both paths inside one instance's capacity: at 64 the queued path filled the server, its
 * jobs ended late, and the extra polls that lateness brings were counted as the path's cost.
 * The paths alternate, sync then queued, BENCH_Q_ROUNDS times (default 3): this machine's speed
 * drifts by ±15 % between minutes, so each round's queued figure is divided by the sync figure
 * measured just before it, and the summary row is the median of those ratios.
 */
async function costByPath(ctx: Ctx, rows: Row[]) {
  const clients = Number(process.env.BENCH_Q_CLIENTS ?? (quick ? 16 : 24));
  const rounds = Number(process.env.BENCH_Q_ROUNDS ?? (quick ? 1 : 3));
  const seconds = quick ? 10 : 15;
  const jobMs = 2_000;
  const keyOf = (i: number) => ctx.keys[(256 + i) % SIZES.users]!;
  const cpuNow = () => {
    const [a, b] = [ctx.a.cpu(), ctx.b.cpu()];
    return { server: a.server + b.server, postgres: a.postgres, at: performance.now() };
  };
  const measure = async (path: "sync" | "queue", round: number, one: (key: string) => Promise<{ polls: number; doneMs: number }>) => {
    freshSockets();
    await sleep(2_000);
    // Both instances' and PostgreSQL's idle cost (the job loops' ticks), subtracted below: what is
    // left per generation is what generations cost, at any rate of them.
    const idle0 = { ...cpuNow(), x: await writeTransactions(ctx) };
    await sleep(3_000);
    const idle1 = { ...cpuNow(), x: await writeTransactions(ctx) };
    const idleSeconds = (idle1.at - idle0.at) / 1000;
    const idleRate = {
      server: (idle1.server - idle0.server) / idleSeconds,
      postgres: (idle1.postgres - idle0.postgres) / idleSeconds,
      x: (idle1.x - idle0.x) / idleSeconds,
    };
    const cpu0 = cpuNow();
    const x0 = await writeTransactions(ctx);
    const t0 = performance.now();
    let gens = 0;
    let polls = 0;
    const done: number[] = [];
    await Promise.all(
      Array.from({ length: clients }, async (_, i) => {
        await sleep((i * jobMs) / clients);
        while (performance.now() - t0 < seconds * 1000) {
          const r = await one(keyOf(i));
          gens++;
          polls += r.polls;
          done.push(r.doneMs - jobMs);
        }
      }),
    );
    const elapsed = (performance.now() - t0) / 1000;
    // The work a generation leaves behind (webhooks, run ends) lands within a second or two.
    await sleep(3_000);
    const cpu1 = cpuNow();
    const x1 = await writeTransactions(ctx);
    const window = (cpu1.at - cpu0.at) / 1000;
    const figures = {
      gens,
      rate: gens / elapsed,
      serverMs: ((cpu1.server - cpu0.server - idleRate.server * window) * 1000) / gens,
      postgresMs: ((cpu1.postgres - cpu0.postgres - idleRate.postgres * window) * 1000) / gens,
      transactions: (x1 - x0 - idleRate.x * window) / gens,
      idle: { serverCpuPercent: idleRate.server * 100, postgresCpuPercent: idleRate.postgres * 100, transactionsPerSecond: idleRate.x },
      polls: polls / gens,
      added: stats(done),
    };
    rows.push({
      path: `${path}, round ${round}: ${clients} clients, ${jobMs / 1000} s jobs`,
      "gen/s": f1(figures.rate),
      "server CPU ms/gen (× /health)": `${f2(figures.serverMs)} (${f1(figures.serverMs / ctx.healthCpuMs)})`,
      "PostgreSQL CPU ms/gen": f2(figures.postgresMs),
      "DB write transactions/gen": f1(figures.transactions),
      "status polls/gen": f1(figures.polls),
      "done after the job, p50 / p99 ms": `${f1(figures.added.p50)} / ${f1(figures.added.p99)}`,
    });
    return figures;
  };
  const sync = async (key: string) => {
    const a = await call(`${ctx.a.baseUrl}/run/${MODEL}`, { key, body: bodyOf(jobMs) });
    if (a.status !== 200) throw new Error(`sync: ${a.status} ${a.body.slice(0, 200)}`);
    return { polls: 0, doneMs: a.ms };
  };
  const queued = async (key: string) => {
    const t0 = performance.now();
    const job = await submitQueued(ctx.a.baseUrl, key, jobMs);
    await sleep(t0 + jobMs - performance.now());
    let polls = 0;
    for (;;) {
      const a = await call(job.statusUrl, { key });
      polls++;
      const status = a.status === 200 ? (JSON.parse(a.body) as { status: string }).status : `HTTP ${a.status}`;
      if (status === "completed") break;
      if (status === "failed" || status === "cancelled" || a.status !== 200) throw new Error(`queue status: ${status}`);
      await sleep(500);
    }
    const doneMs = performance.now() - t0;
    const result = await call(job.responseUrl, { key });
    if (result.status !== 200) throw new Error(`queue result: ${result.status} ${result.body.slice(0, 200)}`);
    return { polls, doneMs };
  };
  type Figures = Awaited<ReturnType<typeof measure>>;
  const pairs: { sync: Figures; queue: Figures }[] = [];
  for (let round = 1; round <= rounds; round++)
    pairs.push({ sync: await measure("sync", round, sync), queue: await measure("queue", round, queued) });
  // Each round's queued figure over the sync one measured just before it: their median and range.
  const paired = (pick: (f: Figures) => number) => {
    const xs = pairs.map((p) => pick(p.queue) / pick(p.sync)).sort((a, b) => a - b);
    const mid = Math.floor(xs.length / 2);
    return { median: xs.length % 2 ? xs[mid]! : (xs[mid - 1]! + xs[mid]!) / 2, min: xs[0]!, max: xs[xs.length - 1]! };
  };
  const [server, postgres, writes] = [paired((f) => f.serverMs), paired((f) => f.postgresMs), paired((f) => f.transactions)];
  const shown = (r: ReturnType<typeof paired>) => `${f2(r.median)} (${f2(r.min)}–${f2(r.max)})`;
  const ratio = { serverCpu: server.median, postgresCpu: postgres.median, writes: writes.median };
  rows.push({
    path: `queued ÷ sync, median of ${rounds} paired round(s) (range)`,
    "gen/s": "",
    "server CPU ms/gen (× /health)": shown(server),
    "PostgreSQL CPU ms/gen": shown(postgres),
    "DB write transactions/gen": shown(writes),
    "status polls/gen": "",
    "done after the job, p50 / p99 ms": "",
  });
  return { sync: pairs.map((p) => p.sync), queue: pairs.map((p) => p.queue), ratio };
}

// ---------------------------------------------------------------------------------------------
// d. Mixed.

/**
 * d: everything on instance A; d2 and d3: sync and polling clients alternate between the two
 * instances, as behind a load balancer (streams always do). d and d2 draw the polled and streamed
 * jobs as a's (5–15 s: ~51 queued gen/s beside a's 51 sync, more queued work than b and c
 * together); d3 gives them c's 60 s, so each quarter makes its own shape's load (a, b and c at
 * once). Each queued client's first submit falls at random within one mean job length, as a's clients
 * start: clients started together would end together, every minute, a burst no real population makes.
 */
async function mixed(ctx: Ctx, rows: Row[], variant: "d" | "d2" | "d3") {
  freshSockets();
  const m = variant === "d3" ? SIZES.mixedLong : SIZES.mixed;
  const spread = variant !== "d";
  const [queuedMin, queuedMax] = variant === "d3" ? [SIZES.mixedLong.jobMs, SIZES.mixedLong.jobMs] : [5_000, 15_000];
  const firstSubmitWithinMs = (queuedMin + queuedMax) / 2;
  const started = performance.now();
  const stopAt = started + m.seconds * 1000;
  const polls: Poll[] = [];
  const followed: Followed[] = [];
  let jobErrors = 0;
  const pollKey = (i: number) => ctx.keys[(512 + i) % SIZES.users]!;
  const streamKey = (i: number) => ctx.keys[(768 + i) % SIZES.users]!;
  const pollers = Array.from({ length: m.poll }, async (_, i) => {
    await sleep(Math.random() * firstSubmitWithinMs);
    while (performance.now() < stopAt) {
      const base = spread && i % 2 ? ctx.b.baseUrl : ctx.a.baseUrl;
      const job = await submitQueued(base, pollKey(i), drawLatency(queuedMin, queuedMax)).catch(() => (jobErrors++, null));
      if (!job) continue;
      await pollUntilDone(job.statusUrl, job.responseUrl, pollKey(i), polls, () => "status", "");
    }
  });
  const streamers = Array.from({ length: m.stream }, async (_, i) => {
    await sleep(Math.random() * firstSubmitWithinMs);
    while (performance.now() < stopAt) {
      const job = await submitQueued(i % 2 ? ctx.b.baseUrl : ctx.a.baseUrl, streamKey(i), drawLatency(queuedMin, queuedMax)).catch(
        () => (jobErrors++, null),
      );
      if (!job) continue;
      const f = follow(ctx, job.id, streamKey(i), "gateway", "status", i % 2 ? "A" : "B");
      followed.push(f);
      await f.client.ended;
    }
  });
  const cpu0 = serverCpu(ctx);
  const [loopA, loopB] = await Promise.all([loopWindow(ctx.a), loopWindow(ctx.b)]);
  let loops: [LoopFigures, LoopFigures] | undefined;
  let shares: Awaited<ReturnType<typeof cpuShares>>["shares"] | undefined;
  let floor: ReturnType<typeof stats> | undefined;
  const { result: records, peak } = await sampled(ctx, async () => {
    // The machine's figures cover the sync clients' run, when all three quarters load it.
    const sync = cpuShares(ctx, () =>
      healthFloor(spread ? [ctx.a, ctx.b] : [ctx.a], m.warm * 1000, () =>
        syncClients({
          urls: spread ? [`${ctx.a.baseUrl}/run/${MODEL}`, `${ctx.b.baseUrl}/run/${MODEL}`] : [`${ctx.a.baseUrl}/run/${MODEL}`],
          keys: ctx.keys,
          clients: m.sync,
          minMs: 5_000,
          maxMs: 15_000,
          seconds: m.seconds,
        }),
      ),
    ).then(async (run) => {
      loops = await Promise.all([loopA.end(), loopB.end()]);
      shares = run.shares;
      floor = run.result.floor;
      return run.result.result;
    });
    const [records] = await Promise.all([sync, ...pollers, ...streamers]);
    return records;
  });
  const cpuS = serverCpu(ctx) - cpu0;
  const fig = syncFigures(records, { clients: m.sync, seconds: m.seconds, warm: m.warm });
  const p = stats(polls.map((x) => x.ms));
  const delays = await finalDelays(ctx, followed);
  const missing = followed.filter((f) => !f.final).length;
  // A stream answered 204 was opened after its job ended (a slow submit answer): nothing to follow.
  const missingByAnswer = count(await Promise.all(followed.filter((f) => !f.final).map((f) => f.client.status)));
  rows.push({
    shape: `${variant}. mixed: ${m.sync} sync + ${m.poll} polling + ${m.stream} streaming, queued jobs ${queuedMin / 1000}${queuedMax > queuedMin ? `–${queuedMax / 1000}` : ""} s${spread ? ", all spread over 2 instances" : ""}`,
    "sync gen/s (÷ ideal)": `${f1(fig.rate)} (${f2(fig.ratio)})`,
    "added p50 / p99 ms (steady)": `${f1(fig.added.p50)} / ${f1(fig.added.p99)} (${f1(fig.addedSteady.p50)} / ${f1(fig.addedSteady.p99)})`,
    "status p99 ms": f1(p.p99),
    "/health meanwhile p50 / p99 ms": floor ? `${f1(floor.p50)} / ${f1(floor.p99)}` : "",
    "final event p99 ms": f1(delays.all.p99),
    "status polls / streams": `${polls.length} / ${followed.length}`,
    errors: fig.errors + polls.filter((x) => x.status !== 200).length + jobErrors + missing,
    "streams without a final event, by their answer": JSON.stringify(missingByAnswer),
    "server CPU s": f1(cpuS),
    "peak RSS MB": Math.round(peak.rssMb),
    "peak DB conns (active)": `${peak.connections} (${peak.active})`,
    "lock waiters (peak) / longest statement ms": `${peak.lockWaits} / ${f1(peak.longestMs)}`,
    "cores busy: machine / servers / PostgreSQL / bench (of n)": shares
      ? `${f2(shares.machine)} / ${f2(shares.servers)} / ${f2(shares.postgres)} / ${f2(shares.bench)} (of ${shares.of})`
      : "",
    "loop delay p99 ms: A / B / bench": loops ? `${f1(loops[0].server.p99)} / ${f1(loops[1].server.p99)} / ${f1(loops[0].bench.p99)}` : "",
  });
  return { sync: fig, polls: p, delays, streamed: followed.length, missing, missingByAnswer, jobErrors, peak, shares, loops, floor };
}

// ---------------------------------------------------------------------------------------------
// Faults.

async function faults(ctx: Ctx, rows: Row[]) {
  freshSockets();
  const out: Record<string, unknown> = {};
  // Sync clients hanging up 1 s into 3 s jobs: the jobs still finish and are charged once (ledger).
  const hangups = quick ? 8 : 32;
  await Promise.all(
    Array.from(
      { length: hangups },
      (_, i) =>
        new Promise<void>((resolve) => {
          const req = http.request(`${ctx.a.baseUrl}/run/${MODEL}`, {
            method: "POST",
            agent: false,
            headers: { "content-type": "application/json", authorization: `Bearer ${ctx.keys[i]}` },
          });
          req.on("error", () => resolve());
          req.end(bodyOf(3_000));
          setTimeout(() => (req.destroy(), resolve()), 1_000);
        }),
    ),
  );
  // Streams hung up, then as many reopened at once by the same user: the slots were freed.
  const max = 32;
  const key = ctx.keys[1000 % SIZES.users]!;
  const job = await submitQueued(ctx.a.baseUrl, key, 20_000);
  const url = `${ctx.a.baseUrl}/queue/${MODEL}/requests/${job.id}/status/stream`;
  const first = Array.from({ length: max }, () => openStream(url, key));
  const firstStatuses = await Promise.all(first.map((c) => c.status));
  for (const c of first) c.close();
  await sleep(200);
  const again = Array.from({ length: max }, () => openStream(url, key));
  const againStatuses = await Promise.all(again.map((c) => c.status));
  for (const c of again) c.close();
  out.streamSlots = { first: count(firstStatuses), reopened: count(againStatuses) };
  // A flood of status polls from one rate-limited key (1,000 requests per hour by default).
  const flooder = ctx.keys[SIZES.users]!;
  const floodJob = await submitQueued(ctx.a.baseUrl, flooder, 1_000);
  const answers: Answer[] = [];
  await Promise.all(
    Array.from({ length: 16 }, async () => {
      while (answers.length < 1_100) answers.push(await call(floodJob.statusUrl, { key: flooder }));
    }),
  );
  const limited = answers.filter((a) => a.status === 429);
  const headersOk = limited.every(
    (a) =>
      a.headers["retry-after"] &&
      a.headers["x-ratelimit-limit"] &&
      a.headers["x-ratelimit-remaining"] === "0" &&
      a.headers["x-ratelimit-reset"],
  );
  out.flood = { statuses: count(answers.map((a) => a.status)), limitedWithHeaders: headersOk };
  // The flood's own job and the streams' job complete; the hung-up sync jobs too.
  await sleep(22_000);
  rows.push({
    fault: "sync clients hung up 1 s into 3 s jobs",
    result: `${hangups} jobs; each completed and charged once (ledger check below)`,
  });
  rows.push({
    fault: `${max} streams of one user hung up, ${max} reopened at once`,
    result: `first ${JSON.stringify(out.streamSlots && (out.streamSlots as { first: unknown }).first)}, reopened ${JSON.stringify((out.streamSlots as { reopened: unknown }).reopened)}`,
  });
  rows.push({
    fault: "1,100 status polls from one rate-limited key",
    result: `${JSON.stringify((out.flood as { statuses: unknown }).statuses)}; 429s with Retry-After + X-RateLimit-*: ${headersOk}`,
  });
  return { ...out, hangups, extraJobs: hangups + 2 };
}
const count = (values: number[]) => values.reduce<Record<number, number>>((m, v) => ((m[v] = (m[v] ?? 0) + 1), m), {});

// ---------------------------------------------------------------------------------------------

export const fieldScenario: Scenario = {
  name: "field",
  onlyByName: true,
  description:
    "field load: seconds-long simulator jobs; sync in flight, status polling, idle streams on 2 instances, mixed; faults; ledger check",
  async run({ server, baseline }) {
    const { keys, client } = await seed(server.databaseUrl, SIZES.users);
    const dbName = new URL(server.databaseUrl).pathname.slice(1);
    // The second instance: same database, pools of its own (sized as the first's).
    const b = await startServer(Number(process.env.BENCH_PORT ?? 3300) + 1, {}, { databaseUrl: server.databaseUrl });
    const pg = postgres(server.databaseUrl, { max: 2, onnotice: () => {} });
    const rows: Row[] = [];
    const data: Record<string, unknown> = { quick, sizes: SIZES };
    try {
      // /health's server CPU per request at c16, this run.
      await load({ url: `${server.baseUrl}/health`, connections: 16, duration: 2 });
      const c0 = server.cpu().server;
      const h = await load({ url: `${server.baseUrl}/health`, connections: 16, duration: 5 });
      const healthCpuMs = ((server.cpu().server - c0) * 1000) / h.requests;
      const ctx: Ctx = { a: server, b, keys, pg, dbName, healthCpuMs };
      rows.push({
        shape: "GET /health c16 (baseline, this run)",
        "billed gen/s": `${Math.round(h.rps)} req/s`,
        "server CPU ms/gen (× /health)": `${f2(healthCpuMs)} ms/req`,
        "answer p99 ms": h.latencyMs.p99,
        errors: h.errors + h.non2xx,
      });
      data.health = { c16: h, cpuMs: healthCpuMs, baselineRps: baseline.rps };
      let oks = 0;
      let queued = 0;
      const pollRows: Row[] = [];
      const streamRows: Row[] = [];
      const mixedRows: Row[] = [];
      const costRows: Row[] = [];
      const faultRows: Row[] = [];
      if (shapes.has("a")) {
        console.log("field a: in-flight capacity…");
        const a = await inFlight(
          ctx,
          SIZES.a,
          rows,
          `a. sync /run ${SIZES.a.minMs / 1000}–${SIZES.a.maxMs / 1000} s × ${SIZES.a.clients} clients`,
        );
        oks += a.ok;
        const a2 = await inFlight(
          ctx,
          SIZES.a2,
          rows,
          `a. sync /run ${SIZES.a2.minMs / 1000}–${SIZES.a2.maxMs / 1000} s × ${SIZES.a2.clients} clients`,
        );
        oks += a2.ok;
        data.a = a;
        data.a2 = a2;
      }
      if (shapes.has("b")) {
        console.log("field b: polling…");
        const b1 = await polling(ctx, pollRows);
        queued += b1.jobs;
        data.b = b1;
      }
      if (shapes.has("c")) {
        console.log("field c: streams…");
        const c = await streams(ctx, streamRows);
        queued += c.jobs;
        data.c = c;
      }
      if (shapes.has("q")) {
        console.log("field q: cost by path…");
        data.q = await costByPath(ctx, costRows);
      }
      if (shapes.has("d")) {
        console.log("field d: mixed…");
        const d = await mixed(ctx, mixedRows, "d");
        oks += d.sync.ok;
        queued += d.streamed;
        data.d = d;
      }
      if (shapes.has("d2")) {
        console.log("field d2: mixed, spread over both instances…");
        const d2 = await mixed(ctx, mixedRows, "d2");
        oks += d2.sync.ok;
        queued += d2.streamed;
        data.d2 = d2;
      }
      if (shapes.has("d3")) {
        console.log("field d3: mixed, each quarter as its own shape (queued jobs of 60 s), spread…");
        const d3 = await mixed(ctx, mixedRows, "d3");
        oks += d3.sync.ok;
        queued += d3.streamed;
        data.d3 = d3;
      }
      if (shapes.has("faults")) {
        console.log("field faults…");
        data.faults = await faults(ctx, faultRows);
      }
      const [granted] = await pg`select coalesce(sum(amount), 0)::text as n from credit_transactions where type = 'grant'`;
      const ledger = await ledgerCheck(client, BigInt(granted!.n as string));
      console.log("ledger check:", ledger);
      const [jobs] = await pg`select count(*)::int as n from generation_requests`;
      // Every job the bench made is completed (sync 200s, queue jobs, the faults' jobs).
      assertLedger(ledger, jobs!.n as number);
      data.ledger = ledger;
      void oks;
      void queued;
      return {
        title: `Field: in-flight capacity (${quick ? "quick sizes" : "the issue's sizes"})`,
        rows,
        data,
        tables: [
          { title: "Field b: polling (CPU per poll: marginal, same jobs in flight)", rows: pollRows },
          { title: "Field c: idle streams", rows: streamRows },
          { title: "Field q: what a generation costs by path (each alone, 2 s jobs)", rows: costRows },
          { title: "Field d: mixed", rows: mixedRows },
          {
            title: `Field: faults under load; ledger check OK (${ledger.completed} completed generations, all charged once)`,
            rows: faultRows,
          },
        ],
      };
    } finally {
      await pg.end();
      await client.end();
      await b.stop();
      agent.destroy();
    }
  },
};
