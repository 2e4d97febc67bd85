import { desc, eq, gte, and, sql, asc } from "drizzle-orm";
import type { Executor } from "@/db/client";
import { activity, users } from "@/db/schema";
import { windowStart, type UsageWindow } from "./windows";

/**
 * GET /admin/usage/top-users: the biggest spenders over a window. PostgreSQL ranks the users
 * (activity_created_idx range scan, grouped and limited in SQL) before the user join.
 */
export async function topUsers(db: Executor, window: UsageWindow, limit: number, now = Date.now()) {
  const spend = db
    .select({
      userId: sql<string>`${activity.userId}`.as("user_id"),
      credits: sql<number>`coalesce(sum(${activity.credits}), 0)`.mapWith(Number).as("credits"),
      count: sql<number>`count(*)`.mapWith(Number).as("count"),
    })
    .from(activity)
    .where(and(gte(activity.createdAt, windowStart(window, now)), eq(activity.sandbox, false)))
    .groupBy(activity.userId)
    .orderBy(desc(sql`2`), asc(activity.userId))
    .limit(limit)
    .as("spend");
  const items = await db
    .select({ userId: spend.userId, email: users.email, name: users.name, credits: spend.credits, count: spend.count })
    .from(spend)
    .innerJoin(users, eq(users.id, spend.userId))
    .orderBy(desc(spend.credits), asc(spend.userId));
  return { window, items };
}
