import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import postgres from "postgres";
import { load, type LoadResult } from "../lib/load";
import { startServer } from "../lib/server";
import type { Row } from "../lib/report";
import { catalogBenchQueries, syntheticModels } from "./catalog-models";
import type { Scenario } from "./types";

const MODELS = 5000;

async function loadCatalog(databaseUrl: string) {
  const sql = postgres(databaseUrl, { max: 1, onnotice: () => {} });
  try {
    const rows = syntheticModels(MODELS).map((m) => ({
      model_id: m.modelId,
      alias: m.alias,
      display_name: m.displayName,
      category: m.category,
      description: m.description,
      price_rub: m.priceRub,
      price_unit: m.priceUnit,
      discount_percent: m.discountPercent,
      model_lab: m.modelLab,
      model_family: m.modelFamily,
      group_label: m.groupLabel,
      tags: m.tags,
      license_type: m.licenseType,
      popularity: m.popularity,
      published_at: m.publishedAt,
    }));
    for (let i = 0; i < rows.length; i += 1000) await sql`insert into models ${sql(rows.slice(i, i + 1000))}`;
    await sql`analyze models`;
    const [row] = await sql<{ n: number }[]>`select count(*)::int as n from models`;
    return row!.n;
  } finally {
    await sql.end();
  }
}

const fmt = (label: string, concurrency: number, r: LoadResult): Row => ({
  route: label,
  concurrency,
  "req/s": Math.round(r.rps),
  "p50 ms": r.latencyMs.p50,
  "p95 ms": r.latencyMs.p95,
  "p99 ms": r.latencyMs.p99,
  errors: r.errors + r.non2xx,
});

const ratio = (a: number, b: number) => Math.round((a / b) * 100) / 100;

/** A free loopback port (for the embedded database the PGlite server exposes). */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Loads the catalog into one server's database and measures it beside that server's /health. */
async function measure(database: "postgres" | "pglite", baseUrl: string, databaseUrl: string) {
  const total = await loadCatalog(databaseUrl);
  // Correctness before speed: every query answers 200 with matches that satisfy it.
  let matched = 0;
  for (const q of catalogBenchQueries) {
    const res = await fetch(`${baseUrl}/models?${q}&limit=200`);
    if (!res.ok) throw new Error(`GET /models?${q} answered ${res.status}`);
    const body = (await res.json()) as { total: number; items: { tags: string[] }[] };
    const tag = new URLSearchParams(q).get("tag")!;
    if (!body.items.every((m) => m.tags.includes(tag))) throw new Error(`GET /models?${q} returned a model without tag ${tag}`);
    matched += body.total;
  }
  let i = 0;
  const catalog = (connections: number, duration: number) =>
    load({
      url: `${baseUrl}/models`,
      connections,
      duration,
      setupRequest: (req) => ({ ...req, path: `/models?${catalogBenchQueries[i++ % catalogBenchQueries.length]}` }),
    });
  await catalog(4, 3); // warm-up
  const health1 = await load({ url: `${baseUrl}/health`, connections: 1, duration: 5 });
  const c1 = await catalog(1, 10);
  const health16 = await load({ url: `${baseUrl}/health`, connections: 16, duration: 5 });
  const c16 = await catalog(16, 10);
  const label = (route: string) => `${route} (${database})`;
  return {
    total,
    avgMatches: matched / catalogBenchQueries.length,
    rows: [
      fmt(label("GET /health (baseline)"), 1, health1),
      fmt(label("GET /models?search&tag&sort=price_asc"), 1, c1),
      fmt(label("GET /health (baseline)"), 16, health16),
      fmt(label("GET /models?search&tag&sort=price_asc"), 16, c16),
    ],
    data: {
      models: total,
      avgMatches: matched / catalogBenchQueries.length,
      health1,
      c1,
      health16,
      c16,
      // Issue 39's targets: ≥ 0.5 × /health's throughput at c16, p95 ≤ 3 × /health's at c1.
      throughputVsHealthC16: ratio(c16.rps, health16.rps),
      p95VsHealthC1: ratio(c1.latencyMs.p95, health1.latencyMs.p95),
      p95TargetMetAtC1: c1.latencyMs.p95 < 20,
    },
  };
}

/**
 * GET /models?search=…&tag=…&sort=price_asc over 5,000 models (plus the seed), rotating through
 * twelve searches, at concurrency 1 (latency) and 16 (throughput), each beside GET /health
 * measured in the same run at the same concurrency on the same server: on the run's PostgreSQL
 * server, then on a second server of the same build on its embedded PGlite (`DATABASE_URL` unset,
 * loaded through the port it exposes). BENCH_CATALOG_DB=postgres or pglite runs only one.
 */
export const catalogScenario: Scenario = {
  name: "catalog",
  description: `GET /models search + tag + price_asc over ${MODELS} models, on PostgreSQL and on PGlite`,
  async run({ server }) {
    const which = process.env.BENCH_CATALOG_DB ?? "both";
    const rows: Row[] = [];
    const data: Record<string, unknown> = {};
    const summary: Row[] = [];
    let total = 0;
    let avgMatches = 0;
    const record = (database: string, out: Awaited<ReturnType<typeof measure>>) => {
      rows.push(...out.rows);
      data[database] = out.data;
      total = out.total;
      avgMatches = out.avgMatches;
      summary.push({
        database,
        "c16 req/s ÷ /health's": out.data.throughputVsHealthC16,
        "c1 p95 ÷ /health's": out.data.p95VsHealthC1,
      });
    };
    if (which !== "pglite") record("postgres", await measure("postgres", server.baseUrl, server.databaseUrl));
    if (which !== "postgres") {
      const dataDir = mkdtempSync(path.join(tmpdir(), "gw-bench-pglite-"));
      const pglitePort = await freePort();
      const port = Number(new URL(server.baseUrl).port) + 1;
      const embedded = await startServer(port, { DATABASE_URL: "", DATA_DIR: dataDir, PGLITE_PORT: String(pglitePort) });
      try {
        record("pglite", await measure("pglite", embedded.baseUrl, `postgres://postgres@127.0.0.1:${pglitePort}/postgres`));
      } finally {
        await embedded.stop();
        rmSync(dataDir, { recursive: true, force: true });
      }
    }
    return {
      title: `Catalog search over ${total} models (avg ${Math.round(avgMatches)} matches per query); targets: c16 ≥ 0.5 × /health's req/s, c1 p95 ≤ 3 × /health's`,
      rows,
      tables: [{ title: "Catalog search against /health (same server, same run)", rows: summary }],
      data,
    };
  },
};
