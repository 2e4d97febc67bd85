/**
 * The Activity page's filters (GET /me/activity: modelId, apiKeyId, operation, status, limit,
 * offset), kept in the page's URL so a filtered view can be linked and reloaded. Pure, so the
 * server page and the client island read and write them the same way.
 */
export type ActivityFilters = {
  modelId?: string;
  apiKeyId?: string;
  operation?: string;
  status?: string;
  offset: number;
};

export const ACTIVITY_PAGE_SIZE = 25;
export const FILTER_KEYS = ["modelId", "apiKeyId", "operation", "status"] as const;
export type FilterKey = (typeof FILTER_KEYS)[number];

/** What the activity log records (db/schema/generations.ts `activity`). */
export const OPERATIONS = ["run", "queue", "generate", "upload", "integration"] as const;
export const STATUSES = ["completed", "failed", "cancelled"] as const;

const MAX_FILTER_CHARS = 256;

type Source = URLSearchParams | Record<string, string | string[] | undefined>;

function read(source: Source, key: string): string | undefined {
  const raw = source instanceof URLSearchParams ? source.get(key) : source[key];
  const value = (Array.isArray(raw) ? raw[0] : raw)?.trim();
  return value && value.length <= MAX_FILTER_CHARS ? value : undefined;
}

/** The page's search params → filters; blank, oversized or malformed values are dropped. */
export function filtersFrom(source: Source): ActivityFilters {
  const filters: ActivityFilters = { offset: 0 };
  for (const key of FILTER_KEYS) {
    const value = read(source, key);
    if (value) filters[key] = value;
  }
  const offset = Number(read(source, "offset"));
  if (Number.isSafeInteger(offset) && offset > 0) filters.offset = offset;
  return filters;
}

function params(filters: ActivityFilters): URLSearchParams {
  const out = new URLSearchParams();
  for (const key of FILTER_KEYS) if (filters[key]) out.set(key, filters[key]!);
  return out;
}

/** Filters → the JSON API's query string (always with limit and offset). */
export function activityApiQuery(filters: ActivityFilters, limit = ACTIVITY_PAGE_SIZE): string {
  const out = params(filters);
  out.set("limit", String(limit));
  out.set("offset", String(filters.offset));
  return out.toString();
}

/** Filters → the page's own URL (no defaults, so the plain page stays `/dashboard/activity`). */
export function activityPageHref(filters: ActivityFilters): string {
  const out = params(filters);
  if (filters.offset > 0) out.set("offset", String(filters.offset));
  const qs = out.toString();
  return qs ? `/dashboard/activity?${qs}` : "/dashboard/activity";
}

/** Changing a filter starts again from the first page. */
export function withFilter(filters: ActivityFilters, key: FilterKey, value: string): ActivityFilters {
  const next: ActivityFilters = { ...filters, offset: 0 };
  if (value.trim()) next[key] = value.trim();
  else delete next[key];
  return next;
}

/** "850 ms", "2.4 s", "3 min 5 s": a run's duration as people read it. */
export function formatDuration(ms: number | null | undefined): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms) || ms < 0) return "—";
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 59_950) return `${(Math.round(ms / 100) / 10).toFixed(1)} s`;
  const s = Math.round(ms / 1000);
  return `${Math.floor(s / 60)} min ${s % 60} s`;
}

/** The badge colour of an activity or generation status. */
export const statusTone = (status: string) =>
  status === "completed" ? "green" : status === "failed" ? "red" : status === "cancelled" ? "amber" : "slate";
