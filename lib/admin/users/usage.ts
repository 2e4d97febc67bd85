import { and, desc, eq, gte, sql } from "drizzle-orm";
import type { Executor } from "@/db/client";
import { activity } from "@/db/schema";

export const usageWindows = { "24h": 86_400_000, "7d": 7 * 86_400_000, "30d": 30 * 86_400_000 } as const;
export type UsageWindow = keyof typeof usageWindows;

/**
 * Credits and operation counts of a user over windows ending now, from the activity log
 * (activity_user_created_idx). Sandbox (`_test_` key) runs are left out: they cost nothing real.
 */
export async function windowUsage(db: Executor, userId: string, windows: UsageWindow[] = ["24h", "7d", "30d"], now = Date.now()) {
  return Promise.all(
    windows.map(async (window) => {
      const since = new Date(now - usageWindows[window]);
      const rows = await db
        .select({
          modelId: sql<string>`coalesce(${activity.modelId}, '')`,
          credits: sql<number>`coalesce(sum(${activity.credits}), 0)`.mapWith(Number),
          count: sql<number>`count(*)`.mapWith(Number),
        })
        .from(activity)
        .where(and(eq(activity.userId, userId), gte(activity.createdAt, since), eq(activity.sandbox, false)))
        .groupBy(activity.modelId)
        .orderBy(desc(sql`2`));
      return {
        window,
        credits: rows.reduce((s, r) => s + r.credits, 0),
        count: rows.reduce((s, r) => s + r.count, 0),
        byModel: rows,
      };
    }),
  );
}
