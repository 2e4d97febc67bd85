import { performance } from "node:perf_hooks";
import { drizzle } from "drizzle-orm/postgres-js";
import postgres from "postgres";
import { setDbHandle, postgresHandle, type Db } from "@/db/client";
import * as schema from "@/db/schema";
import { apiKeys, users } from "@/db/schema";
import { generateApiKey } from "@/lib/auth/api-key";
import { grantCredits } from "@/lib/billing/ledger";
import { rawProvider } from "@/lib/provider/registry";
import { load, percentile, type LoadResult } from "../lib/load";
import type { Row } from "../lib/report";
import type { Scenario } from "./types";

/**
 * Billed sync generations: `POST /run/fal-ai/flux/schnell` on the local simulator with zero
 * latency (64×64 images, so rendering and storing media stays small) against the simulator
 * called directly in this process (submit + result on the same database), at concurrency 1, 16,
 * 64. Keys are spread over 256 users (limit off, as the brief asks; each user stays under the
 * 100/h generation limit). Afterwards the ledger is checked, and the `Server-Timing` of a
 * sequential sample says where the time goes.
 */
const MODEL = "fal-ai/flux/schnell";
const BODY = JSON.stringify({ prompt: "bench lighthouse", image_size: { width: 64, height: 64 }, seed: 1 });
const USERS = 256;

async function seed(databaseUrl: string) {
  const client = postgres(databaseUrl, { max: 4, onnotice: () => {} });
  const db = drizzle(client, { schema }) as unknown as Db;
  const keys: string[] = [];
  for (let i = 0; i < USERS; i++) {
    const [user] = await db.insert(users).values({ email: `gen-bench-${i}-${Date.now()}@example.test` }).returning({ id: users.id });
    const key = generateApiKey("live");
    await db.insert(apiKeys).values({ id: `key_gen_bench_${i}`, userId: user!.id, name: "bench", hash: key.hash, prefix: key.prefix, start: key.start, rateLimitEnabled: false });
    await grantCredits(db, { userId: user!.id, credits: 100_000_000, type: "grant", idempotencyKey: `bench-grant:${user!.id}` });
    keys.push(key.key);
  }
  return { keys, client, db };
}

function rotating(keys: string[]) {
  let i = 0;
  return (req: { headers?: Record<string, string> }) => ({ ...req, headers: { ...req.headers, authorization: `Bearer ${keys[i++ % keys.length]}` } });
}

/** The simulator alone: submit then result, in-process, at a concurrency, for `seconds`. */
async function simulatorDirect(connections: number, seconds: number) {
  const sim = rawProvider("local");
  const times: number[] = [];
  const end = Date.now() + seconds * 1000;
  const input = JSON.parse(BODY);
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (Date.now() < end) {
        const t0 = performance.now();
        const { providerRequestId } = await sim.submit({ endpointId: MODEL, input, requestId: crypto.randomUUID(), category: "text-to-image" });
        await sim.result({ endpointId: MODEL, providerRequestId });
        times.push(performance.now() - t0);
      }
    }),
  );
  times.sort((a, b) => a - b);
  return { rps: times.length / seconds, p50: percentile(times, 50), p99: percentile(times, 99) };
}

async function ledgerCheck(client: postgres.Sql) {
  const [sums] = await client`
    select
      (select count(*) from balances b where b.credits <> (select coalesce(sum(amount), 0) from credit_transactions t where t.user_id = b.user_id))::int as mismatched,
      (select count(*) from balances where credits < 0)::int as negative,
      (select coalesce(-sum(amount), 0) from credit_transactions where type like 'generation_%')::bigint as charged,
      (select coalesce(sum(cost_settled_credits), 0) from generation_requests where status = 'completed')::bigint as settled,
      (select count(*) from generation_requests where status = 'completed')::int as completed,
      (select count(*) from generation_requests where status <> 'completed')::int as other`;
  return sums!;
}

async function stageSample(url: string, key: string, n: number) {
  const totals: Record<string, number[]> = {};
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    const res = await fetch(url, { method: "POST", body: BODY, headers: { "content-type": "application/json", authorization: `Bearer ${key}` } });
    await res.arrayBuffer();
    const total = performance.now() - t0;
    let inside = 0;
    for (const part of (res.headers.get("server-timing") ?? "").split(",")) {
      const m = /(\w+);dur=([\d.]+)/.exec(part);
      if (!m) continue;
      (totals[m[1]!] ??= []).push(Number(m[2]));
      inside += Number(m[2]);
    }
    (totals["auth + rate limit + parse + response (rest)"] ??= []).push(total - inside);
    (totals.total ??= []).push(total);
  }
  return Object.entries(totals).map(([stage, values]) => {
    values.sort((a, b) => a - b);
    return { stage, "p50 ms": percentile(values, 50).toFixed(2), "mean ms": (values.reduce((a, b) => a + b, 0) / values.length).toFixed(2) };
  });
}

export const gatewayScenario: Scenario = {
  name: "gateway",
  description: "sync POST /run on the zero-latency simulator vs the simulator called directly, c1/c16/c64; ledger check; per-stage times",
  async run({ server, baseline }) {
    const { keys, client } = await seed(server.databaseUrl);
    setDbHandle(postgresHandle(server.databaseUrl, 8));
    const url = `${server.baseUrl}/run/${MODEL}`;
    const post = { url, method: "POST" as const, body: BODY, headers: { "content-type": "application/json" } };
    await load({ ...post, connections: 4, duration: 2, setupRequest: rotating(keys) }); // warm-up
    await simulatorDirect(4, 1);
    const rows: Row[] = [];
    const data: Record<string, unknown> = {};
    for (const [c, seconds] of [[1, 5], [16, 8], [64, 8]] as const) {
      const gw: LoadResult = await load({ ...post, connections: c, duration: seconds, setupRequest: rotating(keys) });
      const sim = await simulatorDirect(c, 3);
      data[`c${c}`] = { gateway: gw, simulator: sim };
      rows.push({
        concurrency: c,
        "billed gen/s": Math.round(gw.rps),
        "× /health": (gw.rps / baseline.rps).toFixed(2),
        "gw p50 ms": gw.latencyMs.p50,
        "gw p99 ms": gw.latencyMs.p99,
        "sim p50 ms": sim.p50.toFixed(2),
        "sim p99 ms": sim.p99.toFixed(2),
        "overhead p50 ms": (gw.latencyMs.p50 - sim.p50).toFixed(2),
        "overhead p99 ms": (gw.latencyMs.p99 - sim.p99).toFixed(2),
        statuses: Object.entries(gw.statusCounts).map(([s, n]) => `${s}:${n}`).join(" "),
      });
    }
    const ledger = await ledgerCheck(client);
    console.log("ledger check:", ledger, Number(ledger.charged) === Number(ledger.settled) && ledger.mismatched === 0 && ledger.negative === 0 ? "OK" : "MISMATCH");
    const stages = await stageSample(url, keys[0]!, 200);
    console.table(stages);
    data.ledger = ledger;
    data.stages = stages;
    await client.end();
    return { title: `Gateway: sync /run (${MODEL}, zero-latency simulator) vs simulator direct`, rows, data };
  },
};
