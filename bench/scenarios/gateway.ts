import http from "node:http";
import { performance } from "node:perf_hooks";
import { drizzle } from "drizzle-orm/postgres-js";
import postgres from "postgres";
import { setDbHandle, postgresHandle, type Db } from "@/db/client";
import * as schema from "@/db/schema";
import { apiKeys, users } from "@/db/schema";
import { generateApiKey } from "@/lib/auth/api-key";
import { grantCredits } from "@/lib/billing/ledger/ledger";
import { rawProvider } from "@/lib/provider/registry";
import { registerSimulators } from "@/simulators/register";
import { load, paced as pacedLoad, percentile, type LoadResult } from "../lib/load";
import type { Row } from "../lib/report";
import type { Scenario } from "./types";

/**
 * Billed sync generations: `POST /run/fal-ai/flux/schnell` on the local simulator with zero
 * latency (256×256, the smallest size the model's schema accepts; one prompt and seed, so the
 * simulator renders the image once and serves it from its LRU, as the direct run does) against
 * the simulator called directly in this process (submit + result on the same database), at
 * concurrency 1, 16, 64 (closed loops, after a 2500-request warm-up at 16), then 16 connections
 * paced evenly at half the c16 throughput (an open loop below capacity, so its latency is the
 * gateway's own rather than a queue's). Each level sends a fixed number of requests and waits for every answer,
 * so the server finishes exactly the generations the client saw. Every answer must be a 200 (a
 * billed generation) or the bench fails. Keys are spread over 256 users with the key limit off;
 * each user stays under the 100/h generation limit. Afterwards the ledger is checked (every 200
 * is one completed, charged generation; charges = balance moved; no negative balance), and the
 * `Server-Timing` of a sequential sample says where the time goes, stage by stage.
 */
const MODEL = "fal-ai/flux/schnell";
const BODY = JSON.stringify({ prompt: "bench lighthouse", image_size: { width: 256, height: 256 }, seed: 1 });
const USERS = 256;
const GRANT = 100_000_000;
const LEVELS: { connections: number; amount: number; paced?: number }[] = [
  { connections: 1, amount: 250 },
  { connections: 16, amount: 1500 },
  { connections: 64, amount: 1500 },
  // Up to 16 in flight, started evenly at half of what c16 sustained: a closed loop at saturation
  // measures its own queue (Little's law: 16 in flight / throughput), this the gateway's added time.
  { connections: 16, amount: 800, paced: 0.5 },
];
const SAMPLE = 200;

async function seed(databaseUrl: string) {
  const client = postgres(databaseUrl, { max: 4, onnotice: () => {} });
  const db = drizzle(client, { schema }) as unknown as Db;
  const keys: string[] = [];
  for (let i = 0; i < USERS; i++) {
    const [user] = await db
      .insert(users)
      .values({ email: `gen-bench-${i}-${Date.now()}@example.test` })
      .returning({ id: users.id });
    const key = generateApiKey("live");
    await db.insert(apiKeys).values({
      id: `key_gen_bench_${i}`,
      userId: user!.id,
      name: "bench",
      hash: key.hash,
      prefix: key.prefix,
      start: key.start,
      rateLimitEnabled: false,
    });
    await grantCredits(db, { userId: user!.id, credits: GRANT, type: "grant", idempotencyKey: `bench-grant:${user!.id}` });
    keys.push(key.key);
  }
  return { keys, client, db };
}

function rotating(keys: string[]) {
  let i = 0;
  return (req: { headers?: Record<string, string> }) => ({
    ...req,
    headers: { ...req.headers, authorization: `Bearer ${keys[i++ % keys.length]}` },
  });
}

/** Fails the run unless every answer was a 200 (a billed generation). */
function assertAllOk(what: string, r: LoadResult): number {
  const ok = r.statusCounts["200"] ?? 0;
  if (ok !== r.requests || r.errors > 0 || r.non2xx > 0) {
    throw new Error(`${what}: expected only 200s, got ${JSON.stringify(r.statusCounts)} (errors ${r.errors}, non-2xx ${r.non2xx})`);
  }
  return ok;
}

/** The simulator alone: submit then result, in-process, at a concurrency, for `seconds`. */
async function simulatorDirect(connections: number, seconds: number) {
  // This process is the bench's, not the server's: the simulator is registered here too.
  registerSimulators();
  const sim = rawProvider("local");
  const times: number[] = [];
  const end = Date.now() + seconds * 1000;
  const input = JSON.parse(BODY);
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (Date.now() < end) {
        const t0 = performance.now();
        const { providerRequestId } = await sim.submit({
          endpointId: MODEL,
          input,
          requestId: crypto.randomUUID(),
          category: "text-to-image",
        });
        const result = await sim.result({ endpointId: MODEL, providerRequestId });
        if (!result.ok) throw new Error(`simulator direct: the model failed: ${result.error.message}`);
        times.push(performance.now() - t0);
      }
    }),
  );
  times.sort((a, b) => a - b);
  return { rps: times.length / seconds, p50: percentile(times, 50), p99: percentile(times, 99) };
}

type Ledger = {
  mismatched: number;
  negative: number;
  charged: string;
  settled: string;
  moved: string;
  completed: number;
  other: number;
  uncharged: number;
};

export async function ledgerCheck(client: postgres.Sql, granted: number | bigint = USERS * GRANT): Promise<Ledger> {
  const [sums] = await client`
    select
      (select count(*) from balances b where b.credits <> (select coalesce(sum(amount), 0) from credit_transactions t where t.user_id = b.user_id))::int as mismatched,
      (select count(*) from balances where credits < 0)::int as negative,
      (select coalesce(-sum(amount), 0) from credit_transactions where type like 'generation_%')::text as charged,
      (select coalesce(sum(cost_settled_credits), 0) from generation_requests where status = 'completed')::text as settled,
      (${String(granted)}::bigint - (select coalesce(sum(credits), 0) from balances))::text as moved,
      (select count(*) from generation_requests where status = 'completed')::int as completed,
      (select count(*) from generation_requests where status = 'completed' and not (cost_settled_credits > 0))::int as uncharged,
      (select count(*) from generation_requests where status <> 'completed')::int as other`;
  return sums as unknown as Ledger;
}

/** Fails the run unless the ledger agrees with the answers the client saw. */
export function assertLedger(l: Ledger, oks: number): void {
  const problems = [
    l.completed !== oks && `completed generations ${l.completed} ≠ 200 answers ${oks}`,
    l.other !== 0 && `${l.other} generations not completed`,
    l.uncharged !== 0 && `${l.uncharged} completed generations charged nothing`,
    !(BigInt(l.charged) > 0n) && "nothing was charged",
    BigInt(l.charged) !== BigInt(l.settled) && `charges ${l.charged} ≠ settled costs ${l.settled}`,
    BigInt(l.charged) !== BigInt(l.moved) && `charges ${l.charged} ≠ balance moved ${l.moved}`,
    l.negative !== 0 && `${l.negative} negative balances`,
    l.mismatched !== 0 && `${l.mismatched} balances differ from their transactions`,
  ].filter(Boolean);
  if (problems.length) throw new Error(`ledger check failed: ${problems.join("; ")}`);
}

const OUTSIDE = "outside the handler (HTTP, Next routing, socket)";

/**
 * Sequential requests, each stage's time read from the answer's `Server-Timing` (measured in the
 * handler: auth, ratelimit, parse, model, validate, reserve, submit, result, rehost, finalize,
 * respond); what the client waited beyond the handler's total is the server's HTTP layer.
 */
async function stageSample(url: string, keys: string[], n: number) {
  const totals: Record<string, number[]> = {};
  // node:http on one kept-alive socket, as the load levels' client: fetch (undici) would add its
  // own milliseconds to "outside the handler".
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    const res = await new Promise<http.IncomingMessage>((resolve, reject) => {
      const req = http.request(
        url,
        { method: "POST", agent, headers: { "content-type": "application/json", authorization: `Bearer ${keys[i % keys.length]}` } },
        (r) => r.resume().on("end", () => resolve(r)),
      );
      req.on("error", reject);
      req.end(BODY);
    });
    const client = performance.now() - t0;
    if (res.statusCode !== 200) throw new Error(`stage sample: expected 200, got ${res.statusCode}`);
    let handler = 0;
    for (const part of String(res.headers["server-timing"] ?? "").split(",")) {
      const m = /([\w-]+);dur=([\d.]+)/.exec(part);
      if (!m) continue;
      if (m[1] === "total") handler = Number(m[2]);
      else (totals[m[1]!] ??= []).push(Number(m[2]));
    }
    if (!handler) throw new Error("stage sample: /run answered without a Server-Timing total");
    (totals["handler total"] ??= []).push(handler);
    (totals[OUTSIDE] ??= []).push(client - handler);
    (totals["client total"] ??= []).push(client);
  }
  agent.destroy();
  return Object.entries(totals).map(([stage, values]) => {
    const mean = values.reduce((a, b) => a + b, 0) / values.length;
    values.sort((a, b) => a - b);
    return { stage, "p50 ms": percentile(values, 50).toFixed(2), "mean ms": mean.toFixed(2), "p99 ms": percentile(values, 99).toFixed(2) };
  });
}

export const gatewayScenario: Scenario = {
  name: "gateway",
  description:
    "sync POST /run on the zero-latency simulator vs the simulator called directly, c1/c16/c64; every answer a 200; ledger check; per-stage times",
  async run({ server, baseline }) {
    const { keys, client } = await seed(server.databaseUrl);
    setDbHandle(postgresHandle(server.databaseUrl, 8));
    const url = `${server.baseUrl}/run/${MODEL}`;
    const post = { url, method: "POST" as const, body: BODY, headers: { "content-type": "application/json" } };
    // Warm-up at the measured concurrency: JIT, every pooled connection preparing its statements,
    // the remembered keys. A server runs for hours; its first thousand requests are measurably
    // slower than the next (profiling harness: a second 1500-request round at c16 was faster in
    // five of six pairs), so the levels start after 2500.
    let oks = assertAllOk("warm-up", await load({ ...post, connections: 16, amount: 2500, setupRequest: rotating(keys) }));
    await simulatorDirect(4, 1);
    const rows: Row[] = [];
    const data: Record<string, unknown> = {};
    let c16Rps = 0;
    for (const { connections: c, amount, paced } of LEVELS) {
      const overallRate = paced ? Math.max(1, Math.round(c16Rps * paced)) : undefined;
      const cpuBefore = server.cpu();
      const gw: LoadResult = overallRate
        ? await pacedLoad({
            url,
            method: "POST",
            body: BODY,
            headers: (i) => ({ "content-type": "application/json", authorization: `Bearer ${keys[i % keys.length]}` }),
            rate: overallRate,
            amount,
            connections: c,
          })
        : await load({ ...post, connections: c, amount, setupRequest: rotating(keys) });
      if (c === 16 && !paced) c16Rps = gw.rps;
      const cpuAfter = server.cpu();
      const cpuMs = (what: "server" | "postgres") => (((cpuAfter[what] - cpuBefore[what]) * 1000) / gw.requests).toFixed(2);
      oks += assertAllOk(`c${c}`, gw);
      const sim = await simulatorDirect(c, 3);
      data[paced ? `c${c}-paced` : `c${c}`] = { gateway: gw, simulator: sim, overallRate };
      rows.push({
        concurrency: paced ? `${c} paced at ${overallRate}/s` : c,
        requests: gw.requests,
        "billed gen/s": Math.round(gw.rps),
        "× /health c16": (gw.rps / baseline.rps).toFixed(2),
        "gw p50 ms": gw.latencyMs.p50,
        "gw p99 ms": gw.latencyMs.p99,
        "sim p50 ms": sim.p50.toFixed(2),
        "sim p99 ms": sim.p99.toFixed(2),
        "overhead p50 ms": (gw.latencyMs.p50 - sim.p50).toFixed(2),
        "overhead p99 ms": (gw.latencyMs.p99 - sim.p99).toFixed(2),
        "server CPU ms/gen": cpuMs("server"),
        "PostgreSQL CPU ms/gen": cpuMs("postgres"),
        statuses: Object.entries(gw.statusCounts)
          .map(([s, n]) => `${s}:${n}`)
          .join(" "),
      });
    }
    const stages = await stageSample(url, keys, SAMPLE);
    oks += SAMPLE;
    console.log(`\nper-stage times of ${SAMPLE} sequential /run requests (Server-Timing):`);
    console.table(stages);
    const ledger = await ledgerCheck(client);
    console.log("ledger check:", ledger);
    assertLedger(ledger, oks);
    console.log(
      `ledger check OK: ${oks} answers 200 = ${ledger.completed} completed generations, ${ledger.charged} credits charged = balance moved = settled, no negative balance`,
    );
    data.ledger = ledger;
    data.stages = stages;
    await client.end();
    return { title: `Gateway: sync /run (${MODEL}, zero-latency simulator) vs simulator direct`, rows, data };
  },
};
