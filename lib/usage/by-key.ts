import { and, asc, desc, eq, gte, sql } from "drizzle-orm";
import type { Executor } from "@/db/client";
import { activity, apiKeys } from "@/db/schema";
import { windowStart, type UsageWindow } from "./windows";

/** What a key looks like in lists: its first characters and an ellipsis, never the secret. */
export const partialKey = (start: string | null) => (start ? `${start}…` : null);

/**
 * A user's spend per API key over a window, most expensive first. Operations made from the
 * dashboard (no key) form one item with apiKeyId null; a deleted key keeps its id with a null name.
 * The key join repeats the owner so another user's key can never lend its name.
 */
export async function usageByKey(db: Executor, userId: string, window: UsageWindow, now = Date.now()) {
  const spend = db
    .select({
      apiKeyId: sql<string | null>`${activity.apiKeyId}`.as("api_key_id"),
      credits: sql<number>`coalesce(sum(${activity.credits}), 0)`.mapWith(Number).as("credits"),
      count: sql<number>`count(*)`.mapWith(Number).as("count"),
      lastUsedAt: sql<string>`max(${activity.createdAt})`.as("last_used_at"),
    })
    .from(activity)
    .where(and(eq(activity.userId, userId), gte(activity.createdAt, windowStart(window, now)), eq(activity.sandbox, false)))
    .groupBy(activity.apiKeyId)
    .as("spend");
  const rows = await db
    .select({
      apiKeyId: spend.apiKeyId,
      keyName: apiKeys.name,
      start: apiKeys.start,
      credits: spend.credits,
      count: spend.count,
      lastUsedAt: spend.lastUsedAt,
    })
    .from(spend)
    .leftJoin(apiKeys, and(eq(apiKeys.id, spend.apiKeyId), eq(apiKeys.userId, userId)))
    .orderBy(desc(spend.credits), sql`${spend.apiKeyId} asc nulls last`);
  return {
    items: rows.map(({ start, lastUsedAt, ...r }) => ({
      apiKeyId: r.apiKeyId,
      keyName: r.keyName,
      partialKey: partialKey(start),
      credits: r.credits,
      count: r.count,
      lastUsedAt: new Date(lastUsedAt).toISOString(),
    })),
  };
}
