import { and, asc, desc, eq, gte, sql } from "drizzle-orm";
import type { Executor } from "@/db/client";
import { activity, models } from "@/db/schema";
import { windowStart, type UsageWindow } from "./windows";

/**
 * A user's spend per model over a window, most expensive first, with the catalog's name and price
 * unit (null for a model no longer in the catalog). Grouped in SQL over activity_user_created_idx.
 */
export async function usageByModel(db: Executor, userId: string, window: UsageWindow, now = Date.now()) {
  const spend = db
    .select({
      modelId: sql<string>`coalesce(${activity.modelId}, '')`.as("model_id"),
      credits: sql<number>`coalesce(sum(${activity.credits}), 0)`.mapWith(Number).as("credits"),
      count: sql<number>`count(*)`.mapWith(Number).as("count"),
    })
    .from(activity)
    .where(and(eq(activity.userId, userId), gte(activity.createdAt, windowStart(window, now)), eq(activity.sandbox, false)))
    .groupBy(activity.modelId)
    .as("spend");
  const items = await db
    .select({
      modelId: spend.modelId,
      displayName: models.displayName,
      priceUnit: models.priceUnit,
      credits: spend.credits,
      count: spend.count,
    })
    .from(spend)
    .leftJoin(models, eq(models.modelId, spend.modelId))
    .orderBy(desc(spend.credits), asc(spend.modelId));
  return { items };
}
