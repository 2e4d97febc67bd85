import { and, count, desc, eq, type SQL } from "drizzle-orm";
import type { Executor } from "@/db/client";
import { activity } from "@/db/schema";
import type { Principal } from "@/lib/auth/principal";
import { toActivityRecord } from "@/lib/assets/present";

export type ActivityFilters = {
  limit: number;
  offset: number;
  modelId?: string;
  apiKeyId?: string;
  operation?: string;
  status?: string;
};

/** GET /me/activity: the caller's records, newest first, filtered; the owner is in the WHERE. */
export async function listActivity(ctx: { db: Executor; principal: Principal }, f: ActivityFilters) {
  const where: SQL[] = [eq(activity.userId, ctx.principal.userId)];
  if (f.modelId) where.push(eq(activity.modelId, f.modelId));
  if (f.apiKeyId) where.push(eq(activity.apiKeyId, f.apiKeyId));
  if (f.operation) where.push(eq(activity.operation, f.operation));
  if (f.status) where.push(eq(activity.status, f.status));
  const filter = and(...where);
  const [rows, [total]] = await Promise.all([
    ctx.db.select().from(activity).where(filter).orderBy(desc(activity.createdAt), desc(activity.id)).limit(f.limit).offset(f.offset),
    ctx.db.select({ n: count() }).from(activity).where(filter),
  ]);
  return { items: rows.map(toActivityRecord), total: total?.n ?? 0, limit: f.limit, offset: f.offset };
}
