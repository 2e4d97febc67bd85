import { bucketStart, defaultHistorySpanMs, granularityMs, MAX_HISTORY_BUCKETS, type HistoryGranularity } from "./windows";

export type HistoryQuery = { from?: string; to?: string; granularity: HistoryGranularity };

/** `to` defaults to now, `from` to a span before `to` that suits the granularity. */
export function resolveHistoryRange(query: HistoryQuery, now = Date.now()) {
  const to = query.to ? new Date(query.to) : new Date(now);
  const from = query.from ? new Date(query.from) : new Date(to.getTime() - defaultHistorySpanMs[query.granularity]);
  return { from, to, granularity: query.granularity };
}

/** Why a history range cannot be served, or null: it must be non-empty and at most MAX_HISTORY_BUCKETS long. */
export function historyRangeProblem(query: HistoryQuery, now = Date.now()): string | null {
  const { from, to, granularity } = resolveHistoryRange(query, now);
  if (from >= to) return "from must be before to";
  const buckets = Math.ceil((to.getTime() - bucketStart(from, granularity).getTime()) / granularityMs[granularity]);
  if (buckets > MAX_HISTORY_BUCKETS) return `at most ${MAX_HISTORY_BUCKETS} buckets: narrow the range or use a coarser granularity`;
  return null;
}
