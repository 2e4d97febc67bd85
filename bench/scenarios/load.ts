import { mkdtempSync, rmSync } from "node:fs";
import http from "node:http";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { eq } from "drizzle-orm";
import { drizzle } from "drizzle-orm/postgres-js";
import postgres from "postgres";
import type { Db } from "@/db/client";
import * as schema from "@/db/schema";
import { apiKeys, users } from "@/db/schema";
import { generateApiKey } from "@/lib/auth/api-key";
import { grantCredits } from "@/lib/billing/ledger/ledger";
import { agent, call, sleep } from "../lib/clients";
import { load, percentile } from "../lib/load";
import type { Row } from "../lib/report";
import { startServer, type BenchServer } from "../lib/server";
import type { Scenario } from "./types";

/**
 * The load of issue 39 item 1, with the keys it comes in on as the variable (item 2: any limit
 * costs the same): one `npm start` instance on the local PostgreSQL, 512 closed-loop sync
 * `POST /run` clients whose jobs the simulator takes 5 s over (`[latency:5000]`, 64 distinct
 * prompts), first requests spread over one job length, a 15 s warm-up, then 40 s measured.
 * BENCH_LOAD_KEYS=16 (default): the clients over 16 users' keys at the default key limit;
 * BENCH_LOAD_KEYS=1: all of them on one key whose `rateLimitMax` is 100,000 per hour (set in the
 * database as the set-up). Both runs lift the per-user generation limit to 100,000 per hour
 * (RATE_LIMIT_USER_GENERATIONS_PER_HOUR), so every request passes the key's window and its
 * user's, and the rate limits are the only thing that differs. Figures, each beside its baseline
 * from the same run: billed gen/s ÷ the ideal (clients ÷ 5 s), added time (answer − 5 s) p50/p99,
 * `GET /health` polled every 100 ms during the load (p99) beside /health alone, server and
 * PostgreSQL CPU per generation beside /health's per request, and the size of the busiest
 * rate-limit row at the end.
 *
 * BENCH_LOAD_DB (issue 39 item 3: the embedded default): `postgres` (default), `pglite` (the same
 * load on `npm start` with no DATABASE_URL, on a fresh data directory) or `both`, one after the
 * other, with PGlite's throughput ÷ PostgreSQL's. After the measured window each server also takes
 * a burst: all clients' requests at once, each on a new connection, timing how long the server
 * took to accept it (the socket's connect and the first `GET /health` answered meanwhile).
 */
const MODEL = "fal-ai/flux/schnell";
const CLIENTS = Number(process.env.BENCH_LOAD_CLIENTS ?? 512);
const JOB_MS = 5_000;
const WARM_S = 15;
const MEASURED_S = 40;
const PROMPTS = 64;
const KEY_MAX = 100_000;
const GRANT = 100_000_000;

const keyCount = () => {
  const n = Number(process.env.BENCH_LOAD_KEYS ?? 16);
  if (!Number.isSafeInteger(n) || n < 1) throw new Error("BENCH_LOAD_KEYS must be a whole number ≥ 1");
  return n;
};

async function seed(databaseUrl: string, n: number, max: number) {
  const client = postgres(databaseUrl, { max, onnotice: () => {} });
  const db = drizzle(client, { schema }) as unknown as Db;
  const stamp = Date.now();
  const keys: { id: string; key: string; userId: string }[] = [];
  for (let i = 0; i < n; i++) {
    const [user] = await db
      .insert(users)
      .values({ email: `load-${i}-${stamp}@example.test` })
      .returning({ id: users.id });
    const key = generateApiKey("live");
    const id = `key_load_${i}`;
    await db.insert(apiKeys).values({ id, userId: user!.id, name: "load", hash: key.hash, prefix: key.prefix, start: key.start });
    await grantCredits(db, { userId: user!.id, credits: GRANT, type: "grant", idempotencyKey: `load-grant:${user!.id}` });
    keys.push({ id, key: key.key, userId: user!.id });
  }
  // One key alone carries the load: its limit is raised as an admin would tune it (rateLimitMax).
  if (n === 1) await db.update(apiKeys).set({ rateLimitMax: KEY_MAX }).where(eq(apiKeys.id, keys[0]!.id));
  const prefill = Number(process.env.BENCH_LOAD_PREFILL ?? 0);
  if (prefill > 0) for (const k of keys) for (const window of [`key:${k.id}`, `user-gen:${k.userId}`]) await fill(client, window, prefill);
  return { keys, client };
}

/**
 * BENCH_LOAD_PREFILL=N: N earlier hits in every key's window and its user's, spread over the hour
 * before the load (from 60 s into it to 60 s before its end), as if the key had served them: the
 * state of a busy key, which the run's own minute does not reach. Written in whichever form this
 * build keeps windows in (a `hits` array until issue 39, `times`/`counts` slots since).
 */
async function fill(client: postgres.Sql, window: string, hits: number) {
  const [{ slots }] = (await client`select exists (select 1 from information_schema.columns
      where table_name = 'rate_limit_windows' and column_name = 'times') as slots`) as unknown as [{ slots: boolean }];
  const from = Date.now() - 3_600_000 + 60_000;
  const step = (3_600_000 - 120_000) / hits;
  const series = client`select (${from}::bigint + floor(g * ${step}::float8))::bigint as h from generate_series(0, ${hits - 1}::int) g`;
  if (slots)
    await client`insert into rate_limit_windows (key, times, counts)
      select ${window}, array_agg(t order by t), array_agg(c order by t)
      from (select max(h) as t, count(*)::int as c from (${series}) s group by h / 60000) slots`;
  else await client`insert into rate_limit_windows (key, hits) select ${window}, array_agg(h order by h) from (${series}) s`;
}

const bodyOf = (i: number) =>
  JSON.stringify({ prompt: `load ${i % PROMPTS} [latency:${JOB_MS}]`, image_size: { width: 256, height: 256 }, seed: 1 });

type Answered = { end: number; ms: number; status: number };

const stats = (values: number[]) => {
  const v = [...values].sort((a, b) => a - b);
  return { n: v.length, p50: percentile(v, 50), p99: percentile(v, 99) };
};
const f1 = (n: number) => n.toFixed(1);
const f2 = (n: number) => n.toFixed(2);

/** A free loopback port (for the port the embedded database is served on). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

type Database = "postgres" | "pglite";

/** `npm start` on a fresh database of the kind asked: PostgreSQL, or the embedded default on a fresh data directory. */
async function serverOn(database: Database, port: number, extra: Record<string, string>) {
  if (database === "postgres") {
    const server = await startServer(port, extra);
    return { server, databaseUrl: server.databaseUrl, cleanup: () => {} };
  }
  const dataDir = mkdtempSync(path.join(tmpdir(), "gw-bench-load-"));
  const pglitePort = await freePort();
  const server = await startServer(port, { ...extra, DATABASE_URL: "", DATA_DIR: dataDir, PGLITE_PORT: String(pglitePort) });
  return {
    server,
    databaseUrl: `postgres://postgres@127.0.0.1:${pglitePort}/postgres`,
    cleanup: () => rmSync(dataDir, { recursive: true, force: true }),
  };
}

/** One sync request on a connection of its own: when the connection was accepted, and when the answer ended. */
function fresh(url: string, key: string, body: string): Promise<{ connectMs: number; ms: number; status: number }> {
  return new Promise((resolve) => {
    const t0 = performance.now();
    let connectMs = NaN;
    const req = http.request(
      url,
      { method: "POST", agent: false, headers: { authorization: `Bearer ${key}`, "content-type": "application/json" } },
      (res) => {
        res.resume();
        res.on("end", () => resolve({ connectMs, ms: performance.now() - t0, status: res.statusCode! }));
      },
    );
    req.on("socket", (socket) => socket.once("connect", () => (connectMs = performance.now() - t0)));
    req.on("error", () => resolve({ connectMs, ms: performance.now() - t0, status: 0 }));
    req.end(body);
  });
}

/** All clients' requests at once on new connections, with /health polled meanwhile. */
async function burst(server: BenchServer, keys: { key: string }[]) {
  const url = `${server.baseUrl}/run/${MODEL}`;
  let on = true;
  const polled: number[] = [];
  const probe = (async () => {
    while (on) {
      const a = await call(`${server.baseUrl}/health`);
      polled.push(a.ms);
      await sleep(100);
    }
  })();
  const answers = await Promise.all(Array.from({ length: CLIENTS }, (_, i) => fresh(url, keys[i % keys.length]!.key, bodyOf(i))));
  on = false;
  await probe;
  const connect = answers.map((a) => a.connectMs).filter((ms) => Number.isFinite(ms));
  return {
    connect: { ...stats(connect), max: Math.max(0, ...connect) },
    health: { ...stats(polled), max: Math.max(0, ...polled) },
    added: stats(answers.filter((a) => a.status === 200).map((a) => a.ms - JOB_MS)),
    failed: answers.filter((a) => a.status !== 200).length,
  };
}

async function measure(database: Database, port: number, n: number) {
  // Its own instance: the per-user generation limit lifted for the bench (the only setting that differs).
  const { server, databaseUrl, cleanup } = await serverOn(database, port, { RATE_LIMIT_USER_GENERATIONS_PER_HOUR: String(KEY_MAX) });
  // The embedded database's port serves its one session to every connection: one is enough to seed.
  const { keys, client } = await seed(databaseUrl, n, database === "pglite" ? 1 : 2);
  try {
    // /health alone on this instance: its latency (c1, polled as during the load) and its server CPU per request (c16).
    await load({ url: `${server.baseUrl}/health`, connections: 16, duration: 2 });
    const c0 = server.cpu();
    const h16 = await load({ url: `${server.baseUrl}/health`, connections: 16, duration: 5 });
    const c1 = server.cpu();
    const healthCpuMs = ((c1.server - c0.server) * 1000) / h16.requests;
    const healthPgMs = ((c1.postgres - c0.postgres) * 1000) / h16.requests;
    const alone: number[] = [];
    for (const stop = performance.now() + 5_000; performance.now() < stop; await sleep(100)) {
      const a = await call(`${server.baseUrl}/health`);
      if (a.status === 200) alone.push(a.ms);
    }
    const healthAlone = stats(alone);

    agent.destroy();
    const url = `${server.baseUrl}/run/${MODEL}`;
    const started = performance.now();
    const stopAt = started + (WARM_S + MEASURED_S) * 1000;
    const answers: Answered[] = [];
    const polled: number[] = [];
    let on = true;
    const cpu = { warm: server.cpu(), end: server.cpu() };
    const probe = (async () => {
      await sleep(WARM_S * 1000);
      cpu.warm = server.cpu();
      while (on && performance.now() < stopAt) {
        const a = await call(`${server.baseUrl}/health`);
        if (a.status === 200) polled.push(a.ms);
        await sleep(100);
      }
      cpu.end = server.cpu();
    })();
    let sent = 0;
    await Promise.all(
      Array.from({ length: CLIENTS }, async (_, i) => {
        const key = keys[i % keys.length]!.key;
        await sleep(Math.random() * JOB_MS);
        while (performance.now() < stopAt) {
          const a = await call(url, { key, body: bodyOf(sent++) });
          answers.push({ end: performance.now() - started, ms: a.ms, status: a.status });
        }
      }),
    );
    on = false;
    await probe;
    agent.destroy();
    const spike = await burst(server, keys);

    const inWindow = answers.filter((a) => a.end >= WARM_S * 1000 && a.end < (WARM_S + MEASURED_S) * 1000);
    const billed = inWindow.filter((a) => a.status === 200);
    const statuses: Record<number, number> = {};
    for (const a of answers) statuses[a.status] = (statuses[a.status] ?? 0) + 1;
    const rate = billed.length / MEASURED_S;
    const ideal = CLIENTS / (JOB_MS / 1000);
    const added = stats(billed.map((a) => a.ms - JOB_MS));
    const health = stats(polled);
    const { warm: w, end: e } = cpu;
    // CPU over the measured window per generation answered in it.
    const cpuMs = ((e.server - w.server) * 1000) / Math.max(1, billed.length);
    const pgMs = ((e.postgres - w.postgres) * 1000) / Math.max(1, billed.length);
    const [row] =
      await client`select key, pg_column_size(w.*)::int as bytes from rate_limit_windows w order by pg_column_size(w.*) desc limit 1`;
    const prefill = Number(process.env.BENCH_LOAD_PREFILL ?? 0);
    const label =
      (n === 1 ? `1 key (rateLimitMax ${KEY_MAX.toLocaleString("en")})` : `${n} keys (default limit)`) +
      (prefill > 0 ? `, ${prefill.toLocaleString("en")} earlier hits in its windows` : "");
    const row0: Row = {
      database,
      case: label,
      "gen/s ÷ ideal": `${f1(rate)} ÷ ${f1(ideal)} = ${f2(rate / ideal)}`,
      "added p50 / p99 ms": `${f1(added.p50)} / ${f1(added.p99)}`,
      "/health during load p50 / p99 ms (alone)": `${f1(health.p50)} / ${f1(health.p99)} (${f1(healthAlone.p50)} / ${f1(healthAlone.p99)})`,
      "server CPU ms/gen (/health ms/req, ×)": `${f2(cpuMs)} (${f2(healthCpuMs)}, ×${f1(cpuMs / healthCpuMs)})`,
      "PostgreSQL CPU ms/gen (/health ms/req)": `${f2(pgMs)} (${f2(healthPgMs)})`,
      "largest limit row bytes": row ? `${row.bytes} (${String(row.key).split(":")[0]})` : "—",
      "non-200 answers": answers.length - answers.filter((a) => a.status === 200).length,
      [`burst of ${CLIENTS}: connect p99 / max ms`]: `${f1(spike.connect.p99)} / ${f1(spike.connect.max)}`,
      "burst: /health max ms, added p99 ms, non-200": `${f1(spike.health.max)}, ${f1(spike.added.p99)}, ${spike.failed}`,
    };
    return {
      label,
      row: row0,
      data: {
        database,
        keys: n,
        clients: CLIENTS,
        rate,
        ideal,
        added,
        health,
        healthAlone,
        healthCpuMs,
        healthPgMs,
        cpuMs,
        pgMs,
        statuses,
        row,
        h16,
        burst: spike,
      },
    };
  } finally {
    await client.end();
    await server.stop();
    cleanup();
  }
}

export const loadScenario: Scenario = {
  name: "load",
  onlyByName: true,
  description:
    "issue 39 item 1's load (512 sync clients, 5 s jobs) over BENCH_LOAD_KEYS keys (16, or 1 at rateLimitMax 100,000), on BENCH_LOAD_DB",
  async run({ baseline }) {
    const n = keyCount();
    const which = process.env.BENCH_LOAD_DB ?? "postgres";
    if (!["postgres", "pglite", "both"].includes(which)) throw new Error("BENCH_LOAD_DB must be postgres, pglite or both");
    const port = Number(process.env.BENCH_PORT ?? 3300) + 2;
    const runs: Awaited<ReturnType<typeof measure>>[] = [];
    if (which !== "pglite") runs.push(await measure("postgres", port, n));
    // Any free port: the one after this scenario's may be another bench's.
    if (which !== "postgres") runs.push(await measure("pglite", await freePort(), n));
    const [pg, lite] = [runs.find((r) => r.data.database === "postgres"), runs.find((r) => r.data.database === "pglite")];
    const tables =
      pg && lite
        ? [
            {
              title: "The embedded default against PostgreSQL (same load, same run; target ≥ 0.5)",
              rows: [
                { "PGlite gen/s ÷ PostgreSQL gen/s": `${f1(lite.data.rate)} ÷ ${f1(pg.data.rate)} = ${f2(lite.data.rate / pg.data.rate)}` },
              ],
            },
          ]
        : undefined;
    return {
      title: `Load (issue 39 items 1–3): ${CLIENTS} sync clients, ${JOB_MS / 1000} s jobs, ${runs[0]!.label}; run baseline /health c16 ${Math.round(baseline.rps)} req/s`,
      rows: runs.map((r) => r.row),
      ...(tables ? { tables } : {}),
      data: Object.fromEntries(runs.map((r) => [r.data.database, r.data])),
    };
  },
};
