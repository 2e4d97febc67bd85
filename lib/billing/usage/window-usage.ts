import { and, asc, desc, eq, gte, sql } from "drizzle-orm";
import type { Executor } from "@/db/client";
import { activity } from "@/db/schema";
import { defaultUsageWindows, windowStart, type UsageWindow } from "./windows";

export type WindowUsage = {
  window: UsageWindow;
  credits: number;
  count: number;
  byModel: { modelId: string; credits: number; count: number }[];
};

/**
 * Credits and operation counts of a user over windows ending now, from the activity log
 * (activity_user_created_idx), grouped by model in SQL; the totals add up the few model groups.
 * Sandbox (`_test_` key) runs are left out: they cost nothing real.
 */
export async function windowUsage(
  db: Executor,
  userId: string,
  windows: UsageWindow[] = defaultUsageWindows,
  now = Date.now(),
): Promise<WindowUsage[]> {
  return Promise.all(
    windows.map(async (window) => {
      const rows = await db
        .select({
          modelId: sql<string>`coalesce(${activity.modelId}, '')`,
          credits: sql<number>`coalesce(sum(${activity.credits}), 0)`.mapWith(Number),
          count: sql<number>`count(*)`.mapWith(Number),
        })
        .from(activity)
        .where(and(eq(activity.userId, userId), gte(activity.createdAt, windowStart(window, now)), eq(activity.sandbox, false)))
        .groupBy(activity.modelId)
        .orderBy(desc(sql`2`), asc(sql`1`));
      return {
        window,
        credits: rows.reduce((s, r) => s + r.credits, 0),
        count: rows.reduce((s, r) => s + r.count, 0),
        byModel: rows,
      };
    }),
  );
}
