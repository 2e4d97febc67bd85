import { and, asc, count, desc, eq, inArray, isNotNull, sql, type SQL } from "drizzle-orm";
import type { Executor } from "@/db/client";
import { activity, assets } from "@/db/schema";
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

/** A record's first stored output (an image first), for the list's thumbnail. */
export type ActivityPreview = { url: string; contentType: string | null };

/**
 * Each listed record's preview: one statement over the page's generations (assets by
 * generation_id, the owner in the WHERE), images before other files, then the oldest.
 */
async function previewsOf(db: Executor, userId: string, requestIds: string[]): Promise<Map<string, ActivityPreview>> {
  if (requestIds.length === 0) return new Map();
  const rows = await db
    .select({ generationId: assets.generationId, url: assets.publicUrl, contentType: assets.contentType })
    .from(assets)
    .where(
      and(eq(assets.userId, userId), inArray(assets.generationId, requestIds), eq(assets.status, "stored"), isNotNull(assets.publicUrl)),
    )
    .orderBy(sql`(${assets.contentType} like 'image/%') desc`, asc(assets.createdAt), asc(assets.id));
  const out = new Map<string, ActivityPreview>();
  for (const r of rows)
    if (r.generationId && r.url && !out.has(r.generationId)) out.set(r.generationId, { url: r.url, contentType: r.contentType });
  return out;
}

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
  const previews = await previewsOf(
    ctx.db,
    ctx.principal.userId,
    rows.flatMap((r) => (r.requestId ? [r.requestId] : [])),
  );
  const items = rows.map((r) => ({ ...toActivityRecord(r), preview: (r.requestId && previews.get(r.requestId)) || null }));
  return { items, total: total?.n ?? 0, limit: f.limit, offset: f.offset };
}
