import type { ServiceContext } from "@/lib/auth/context";
import { and, asc, desc, eq, ne, or } from "drizzle-orm";
import { activity, assets } from "@/db/schema";
import { notFound } from "@/lib/core/errors";
import { deleteAssetRows } from "./delete-assets";
import { toActivityRecord, toAsset } from "./present";

async function findRecord(ctx: ServiceContext, falRequestId: string) {
  const [record] = await ctx.db
    .select()
    .from(activity)
    .where(and(eq(activity.userId, ctx.principal.userId), eq(activity.providerRequestId, falRequestId)))
    .orderBy(desc(activity.createdAt))
    .limit(1);
  if (!record) throw notFound("Activity record");
  return record;
}

/** The record's live assets: those re-hosted from its provider request or made by its generation. */
async function recordAssets(ctx: ServiceContext, record: typeof activity.$inferSelect) {
  const source = record.requestId
    ? or(eq(assets.falRequestId, record.providerRequestId!), eq(assets.generationId, record.requestId))
    : eq(assets.falRequestId, record.providerRequestId!);
  return ctx.db
    .select()
    .from(assets)
    .where(and(eq(assets.userId, ctx.principal.userId), ne(assets.status, "deleted"), source))
    .orderBy(asc(assets.createdAt), asc(assets.id));
}

/** GET /me/activity/{falRequestId}: the owner's record and its assets; anyone else gets 404. */
export async function getActivityWithAssets(ctx: ServiceContext, falRequestId: string) {
  const record = await findRecord(ctx, falRequestId);
  const rows = await recordAssets(ctx, record);
  return { record: toActivityRecord(record), assets: rows.map(toAsset) };
}

/** DELETE /me/activity/{falRequestId}/assets: deletes every asset of the record. */
export async function deleteActivityAssets(ctx: ServiceContext, falRequestId: string) {
  const record = await findRecord(ctx, falRequestId);
  const ids = await deleteAssetRows(ctx.db, await recordAssets(ctx, record));
  return { deleted: ids.length, ids };
}
