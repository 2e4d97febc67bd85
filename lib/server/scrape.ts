import { inArray, sql } from "drizzle-orm";
import { Gauge } from "prom-client";
import { getDb, type Db } from "@/db/client";
import { balances, jobRuns } from "@/db/schema";
import { env } from "@/lib/core/env";
import { jobsMode } from "@/lib/jobs/mode";
import { currentExecutor } from "@/lib/jobs/runtime";
import { log } from "@/lib/core/logger";
import { breakerSnapshots } from "@/lib/provider/circuit-breaker";
import { cooldownSnapshots } from "@/lib/provider/cooldown";
import { metrics, openStreamCount } from "../observability/metrics";
import { withTimeout } from "../observability/timeout";

const CIRCUIT_STATES = ["closed", "half_open", "open"] as const;
const UNFINISHED = ["queued", "running", "sleeping", "waiting", "blocked"] as const;
const QUERY_TIMEOUT_MS = 2000;

const g = globalThis as unknown as { __gwScrapeGauges?: boolean };

/**
 * Gauges read when /metrics is scraped rather than kept up to date on the way: breaker states,
 * open streams, the embedded executor's work, and the ledger's totals. The two database reads
 * are one aggregate each (balances has one row per user; unfinished job runs are a partial
 * index). A read that fails drops its series for that scrape, so a stale value never looks
 * current; the scrape itself still answers.
 */
export function registerScrapeGauges(): void {
  if (g.__gwScrapeGauges) return;
  g.__gwScrapeGauges = true;
  const registers = [metrics().registry];

  new Gauge({
    name: "gateway_provider_circuit_state",
    help: "1 for the state each provider's circuit breaker is in (closed, half_open, open), 0 for the others",
    labelNames: ["provider", "state"],
    registers,
    collect() {
      this.reset();
      const breakers = breakerSnapshots().map(({ provider, state }) => ({ provider, state }));
      // The configured provider's breaker exists from its first call; until then it is closed.
      if (!breakers.some((b) => b.provider === env().PROVIDER)) breakers.push({ provider: env().PROVIDER, state: "closed" });
      for (const breaker of breakers) {
        for (const state of CIRCUIT_STATES) this.set({ provider: breaker.provider, state }, breaker.state === state ? 1 : 0);
      }
    },
  });

  new Gauge({
    name: "gateway_provider_cooldown_seconds",
    help: "Seconds left of each provider's cooldown after a refused submit (tried after a model's other routes meanwhile); 0 when none",
    labelNames: ["provider"],
    registers,
    collect() {
      this.reset();
      for (const c of cooldownSnapshots()) this.set({ provider: c.provider }, c.retryAfterMs / 1000);
    },
  });

  new Gauge({
    name: "gateway_sse_streams_open",
    help: "Event streams (SSE) open in this process",
    registers,
    collect() {
      this.set(openStreamCount());
    },
  });

  new Gauge({
    name: "gateway_jobs_inflight",
    help: "Job runs the embedded executor of this process is executing now",
    registers,
    collect() {
      this.set(currentExecutor()?.inflightCount ?? 0);
    },
  });

  new Gauge({
    name: "gateway_jobs_queue_depth",
    help: "Unfinished job runs of the embedded executor (all instances), by status",
    labelNames: ["status"],
    registers,
    async collect() {
      this.reset();
      if (jobsMode().kind !== "embedded") return;
      const rows = await read("job runs", (db) =>
        db
          .select({ status: jobRuns.status, n: sql<number>`count(*)::int`.mapWith(Number) })
          .from(jobRuns)
          .where(inArray(jobRuns.status, [...UNFINISHED]))
          .groupBy(jobRuns.status),
      );
      if (!rows) return;
      for (const status of UNFINISHED) this.set({ status }, rows.find((r) => r.status === status)?.n ?? 0);
    },
  });

  new Gauge({
    name: "gateway_ledger_credits",
    help: "Credits issued (top-ups and grants net of clawbacks) and used (generations net of refunds), over all users; 1 credit = 0.0001 RUB",
    labelNames: ["total"],
    registers,
    async collect() {
      this.reset();
      // The ledger writes `credits` and `spent_credits` with each of its rows (lib/admin/stats.ts).
      const rows = await read("ledger totals", (db) =>
        db
          .select({
            balance: sql<number>`coalesce(sum(${balances.credits}), 0)`.mapWith(Number),
            spent: sql<number>`coalesce(sum(${balances.spentCredits}), 0)`.mapWith(Number),
          })
          .from(balances),
      );
      const totals = rows?.[0];
      if (!totals) return;
      this.set({ total: "issued" }, totals.balance + totals.spent);
      this.set({ total: "used" }, totals.spent);
    },
  });
}

async function read<T>(what: string, query: (db: Db) => Promise<T>): Promise<T | null> {
  try {
    return await withTimeout(getDb().then(query), QUERY_TIMEOUT_MS, `${what} read timed out`);
  } catch (error) {
    log.warn("metrics: a database read failed", { what, error });
    return null;
  }
}
