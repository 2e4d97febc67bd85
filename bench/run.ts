/**
 * `npm run bench [scenario…]`: a production build on a fresh PostgreSQL database, loaded from this
 * process on the same two cores. Every figure is printed beside the baseline of the same run
 * (GET /health: one route handler and one database round trip), because absolute numbers drift
 * from run to run on shared cores.
 */
import { load } from "./lib/load";
import { saveResults, table } from "./lib/report";
import { ensureBuild, startServer } from "./lib/server";
import { scenarios } from "./scenarios";

async function main() {
  const wanted = process.argv.slice(2).filter((a) => !a.startsWith("--"));
  const selected = wanted.length ? scenarios.filter((s) => wanted.includes(s.name)) : scenarios.filter((s) => !s.onlyByName);
  ensureBuild();
  const server = await startServer(Number(process.env.BENCH_PORT ?? 3300));
  const results: Record<string, unknown> = {};
  try {
    await load({ url: `${server.baseUrl}/health`, connections: 16, duration: 3 }); // warm-up
    const baseline = await load({ url: `${server.baseUrl}/health`, connections: 16, duration: 10 });
    const baseline1 = await load({ url: `${server.baseUrl}/health`, connections: 1, duration: 5 });
    results.baseline = { c16: baseline, c1: baseline1 };
    table("Baseline: GET /health", [
      {
        concurrency: 16,
        "req/s": Math.round(baseline.rps),
        "p50 ms": baseline.latencyMs.p50,
        "p99 ms": baseline.latencyMs.p99,
        errors: baseline.errors + baseline.non2xx,
      },
      {
        concurrency: 1,
        "req/s": Math.round(baseline1.rps),
        "p50 ms": baseline1.latencyMs.p50,
        "p99 ms": baseline1.latencyMs.p99,
        errors: baseline1.errors + baseline1.non2xx,
      },
    ]);
    for (const scenario of selected) {
      console.log(`\nrunning ${scenario.name}: ${scenario.description}`);
      const out = await scenario.run({ server, baseline });
      table(out.title, out.rows);
      for (const t of out.tables ?? []) table(t.title, t.rows);
      results[scenario.name] = out.data;
    }
  } finally {
    await server.stop();
  }
  saveResults(results);
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
