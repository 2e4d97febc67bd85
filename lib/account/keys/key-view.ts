import type { Executor } from "@/db/client";
import { apiKeys } from "@/db/schema";
import { env } from "@/lib/core/env";
import { CREDITS_PER_RUB } from "@/lib/pricing/credits";
import { log } from "@/lib/core/logger";
import { keyWindowCount } from "@/lib/rate-limit/sliding-window";
import { flushUsageCounts } from "@/lib/rate-limit/usage-counts";

/**
 * Columns every key view selects. `windowCount` is read from the key's rate-limit window
 * (lib/rate-limit): the requests that count toward `rateLimitMax` right now.
 */
export function keyColumns(now = Date.now()) {
  return {
    id: apiKeys.id,
    userId: apiKeys.userId,
    name: apiKeys.name,
    prefix: apiKeys.prefix,
    start: apiKeys.start,
    enabled: apiKeys.enabled,
    expiresAt: apiKeys.expiresAt,
    createdAt: apiKeys.createdAt,
    updatedAt: apiKeys.updatedAt,
    lastRequest: apiKeys.lastRequest,
    requests: apiKeys.requestCount,
    lastUsedAt: apiKeys.lastUsedAt,
    lifetimeCostCredits: apiKeys.lifetimeCostCredits,
    monthlyLimitRub: apiKeys.monthlyLimitRub,
    rateLimitEnabled: apiKeys.rateLimitEnabled,
    rateLimitTimeWindow: apiKeys.rateLimitTimeWindow,
    rateLimitMax: apiKeys.rateLimitMax,
    windowCount: keyWindowCount(apiKeys.id, apiKeys.rateLimitTimeWindow, now),
  };
}

/**
 * Writes the usage counts this process still holds (lib/rate-limit/usage-counts.ts) before a key
 * view reads them, so a view shows every request this instance answered (other instances' within
 * a second). A failed write keeps them for the next flush; the view is read anyway.
 */
export const pendingCountsWritten = (db: Executor) =>
  flushUsageCounts(db).catch((error) => log.warn("usage counts not written before a key view", { error }));

/** Every key view starts from this query; add a WHERE and an ORDER BY. */
export const selectKeys = (db: Executor, now = Date.now()) => db.select(keyColumns(now)).from(apiKeys);

export type KeyRow = Awaited<ReturnType<typeof selectKeys>>[number];

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** The spec's API key resource. The hash never leaves the database; the plaintext is never stored. */
export function toApiKey(row: KeyRow) {
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    start: row.start,
    enabled: row.enabled,
    expiresAt: iso(row.expiresAt),
    createdAt: row.createdAt.toISOString(),
    lastRequest: iso(row.lastRequest),
    requestCount: row.rateLimitEnabled ? row.windowCount : 0,
    requests: Number(row.requests),
    lastUsedAt: iso(row.lastUsedAt),
    // Whole rubles, rounded to nearest; the exact figure stays in credits in the ledger.
    lifetimeCostRub: Math.round(Number(row.lifetimeCostCredits) / CREDITS_PER_RUB),
    monthlyLimitRub: row.monthlyLimitRub,
  };
}

export type ApiKeyView = ReturnType<typeof toApiKey>;

/** The admin key tuning view: the limit as it applies now (the default when no override is set). */
export function toAdminKeyView(row: KeyRow) {
  const max = row.rateLimitMax ?? env().RATE_LIMIT_KEY_PER_HOUR;
  return {
    id: row.id,
    name: row.name,
    enabled: row.enabled,
    rateLimitEnabled: row.rateLimitEnabled,
    rateLimitTimeWindow: row.rateLimitTimeWindow,
    rateLimitMax: max,
    remaining: row.rateLimitEnabled ? Math.max(0, max - row.windowCount) : null,
    monthlyLimitRub: row.monthlyLimitRub,
    expiresAt: iso(row.expiresAt),
    updatedAt: row.updatedAt.toISOString(),
  };
}
