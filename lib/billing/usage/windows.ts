const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/**
 * The accepted usage windows (`?window=`, `?windows=`): each ends now and reaches back this far.
 * The names are the values /openapi.json lists.
 */
export const usageWindows = {
  "1h": HOUR_MS,
  "24h": DAY_MS,
  "7d": 7 * DAY_MS,
  "30d": 30 * DAY_MS,
  "90d": 90 * DAY_MS,
  "365d": 365 * DAY_MS,
} as const;

export type UsageWindow = keyof typeof usageWindows;
export const usageWindowNames = Object.keys(usageWindows) as [UsageWindow, ...UsageWindow[]];
export const defaultUsageWindows: UsageWindow[] = ["24h", "7d", "30d"];

/** The start of a window ending at `now`. */
export const windowStart = (window: UsageWindow, now = Date.now()) => new Date(now - usageWindows[window]);

export const historyGranularities = ["hour", "day", "week"] as const;
export type HistoryGranularity = (typeof historyGranularities)[number];

export const granularityMs: Record<HistoryGranularity, number> = { hour: HOUR_MS, day: DAY_MS, week: 7 * DAY_MS };

/** A history without `from` covers this much before `to`: a day of hours, a month of days, 12 weeks. */
export const defaultHistorySpanMs: Record<HistoryGranularity, number> = { hour: DAY_MS, day: 30 * DAY_MS, week: 84 * DAY_MS };

/** More buckets than this is a mistake (a year of hours), refused as invalid_query. */
export const MAX_HISTORY_BUCKETS = 1_000;

/** The UTC start of the bucket holding `t` (weeks start on Monday, as PostgreSQL's date_trunc). */
export function bucketStart(t: Date, granularity: HistoryGranularity): Date {
  const d = new Date(Date.UTC(t.getUTCFullYear(), t.getUTCMonth(), t.getUTCDate(), granularity === "hour" ? t.getUTCHours() : 0));
  if (granularity === "week") d.setUTCDate(d.getUTCDate() - ((d.getUTCDay() + 6) % 7));
  return d;
}
