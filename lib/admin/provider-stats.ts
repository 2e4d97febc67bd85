import { sql } from "drizzle-orm";
import { rawRows, type Executor } from "@/db/client";

/**
 * The per-provider part of GET /admin/stats, over every job (the window the other figures use):
 * what each provider carried and how it went, the jobs that left it before starting there
 * (failovers: its `refused` and `not_started` attempts, on whichever job they were recorded), how
 * long it took to start what it served, and its money: what it charges the operator for its
 * completed jobs against what their users were charged. Sandbox jobs count as jobs but not as money.
 * Two aggregates in one statement: the jobs by provider, the attempts by provider, joined.
 */
export type ProviderStats = {
  provider: string;
  jobs: number;
  completed: number;
  failed: number;
  failovers: number;
  startLatencyMs: { p50: number | null; p95: number | null };
  costCredits: number;
  /** Completed, non-sandbox jobs whose provider cost is unknown (their route has no cost): not in costCredits. */
  costUnknownJobs: number;
  revenueCredits: number;
  marginCredits: number;
};

type Raw = {
  provider: string;
  jobs: string | number | null;
  completed: string | number | null;
  failed: string | number | null;
  failovers: string | number | null;
  p50: string | number | null;
  p95: string | number | null;
  cost: string | number | null;
  cost_unknown: string | number | null;
  revenue: string | number | null;
};

export async function providerStats(db: Executor): Promise<ProviderStats[]> {
  const rows = await rawRows<Raw>(
    db,
    sql`with served as (
          select provider,
                 count(*) as jobs,
                 count(*) filter (where status = 'completed') as completed,
                 count(*) filter (where status = 'failed') as failed,
                 percentile_cont(0.5) within group (order by extract(epoch from started_at - submitted_at) * 1000)
                   filter (where started_at is not null and submitted_at is not null) as p50,
                 percentile_cont(0.95) within group (order by extract(epoch from started_at - submitted_at) * 1000)
                   filter (where started_at is not null and submitted_at is not null) as p95,
                 sum(provider_cost_credits) filter (where status = 'completed' and not sandbox) as cost,
                 count(*) filter (where status = 'completed' and not sandbox and provider_cost_credits is null) as cost_unknown,
                 sum(cost_settled_credits) filter (where status = 'completed' and not sandbox) as revenue
            from generation_requests
           group by provider
        ), left_before_start as (
          select a ->> 'provider' as provider, count(*) as failovers
            from generation_requests g
            cross join lateral jsonb_array_elements(g.attempts) a
           where a ->> 'outcome' in ('refused', 'not_started')
           group by 1
        )
        select coalesce(s.provider, l.provider) as provider, s.jobs, s.completed, s.failed, l.failovers,
               s.p50, s.p95, s.cost, s.cost_unknown, s.revenue
          from served s
          full join left_before_start l on l.provider = s.provider
         order by 1`,
  );
  const n = (v: string | number | null) => (v === null ? 0 : Number(v));
  const ms = (v: string | number | null) => (v === null ? null : Math.round(Number(v)));
  return rows.map((r) => ({
    provider: r.provider,
    jobs: n(r.jobs),
    completed: n(r.completed),
    failed: n(r.failed),
    failovers: n(r.failovers),
    startLatencyMs: { p50: ms(r.p50), p95: ms(r.p95) },
    costCredits: n(r.cost),
    costUnknownJobs: n(r.cost_unknown),
    revenueCredits: n(r.revenue),
    marginCredits: n(r.revenue) - n(r.cost),
  }));
}
