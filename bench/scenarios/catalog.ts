import postgres from "postgres";
import { load, type LoadResult } from "../lib/load";
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

/**
 * GET /models?search=…&tag=…&sort=price_asc over 5,000 models (plus the seed), rotating through
 * twelve searches, at concurrency 1 (the latency target: p95 < 20 ms) and 16 (throughput), each
 * beside GET /health measured in the same run at the same concurrency.
 */
export const catalogScenario: Scenario = {
  name: "catalog",
  description: `GET /models search + tag + price_asc over ${MODELS} models`,
  async run({ server }) {
    const total = await loadCatalog(server.databaseUrl);
    // Correctness before speed: every query answers 200 with matches that satisfy it.
    let matched = 0;
    for (const q of catalogBenchQueries) {
      const res = await fetch(`${server.baseUrl}/models?${q}&limit=200`);
      if (!res.ok) throw new Error(`GET /models?${q} answered ${res.status}`);
      const body = (await res.json()) as { total: number; items: { tags: string[] }[] };
      const tag = new URLSearchParams(q).get("tag")!;
      if (!body.items.every((m) => m.tags.includes(tag))) throw new Error(`GET /models?${q} returned a model without tag ${tag}`);
      matched += body.total;
    }
    let i = 0;
    const catalog = (connections: number, duration: number) =>
      load({
        url: `${server.baseUrl}/models`,
        connections,
        duration,
        setupRequest: (req) => ({ ...req, path: `/models?${catalogBenchQueries[i++ % catalogBenchQueries.length]}` }),
      });
    await catalog(4, 3); // warm-up
    const health1 = await load({ url: `${server.baseUrl}/health`, connections: 1, duration: 5 });
    const c1 = await catalog(1, 10);
    const health16 = await load({ url: `${server.baseUrl}/health`, connections: 16, duration: 5 });
    const c16 = await catalog(16, 10);
    return {
      title: `Catalog search over ${total} models (avg ${Math.round(matched / catalogBenchQueries.length)} matches per query); target p95 < 20 ms at concurrency 1`,
      rows: [
        fmt("GET /health (baseline)", 1, health1),
        fmt("GET /models?search&tag&sort=price_asc", 1, c1),
        fmt("GET /health (baseline)", 16, health16),
        fmt("GET /models?search&tag&sort=price_asc", 16, c16),
      ],
      data: {
        models: total,
        avgMatches: matched / catalogBenchQueries.length,
        health1,
        c1,
        health16,
        c16,
        p95TargetMetAtC1: c1.latencyMs.p95 < 20,
      },
    };
  },
};
