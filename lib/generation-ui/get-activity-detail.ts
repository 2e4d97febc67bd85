import { and, asc, desc, eq, ne, or } from "drizzle-orm";
import { activity, assets, generationRequests } from "@/db/schema";
import { getActivityWithAssets } from "@/lib/assets/activity-assets";
import { toActivityRecord, toAsset } from "@/lib/assets/present";
import type { RequestContext } from "@/lib/http/handler";
import { notFound } from "@/lib/http/errors";

type Ctx = RequestContext<"key">;

export type ActivityDetail = Awaited<ReturnType<typeof getActivityDetail>>;

async function findRecord(ctx: Ctx, id: string) {
  const mine = eq(activity.userId, ctx.principal.userId);
  const [record] = await ctx.db
    .select()
    .from(activity)
    .where(and(mine, or(eq(activity.id, id), eq(activity.providerRequestId, id))))
    .orderBy(desc(activity.createdAt))
    .limit(1);
  if (!record) throw notFound("Activity record");
  return record;
}

async function findGeneration(ctx: Ctx, requestId: string | null) {
  if (!requestId) return null;
  const [row] = await ctx.db
    .select()
    .from(generationRequests)
    .where(and(eq(generationRequests.id, requestId), eq(generationRequests.userId, ctx.principal.userId)))
    .limit(1);
  if (!row) return null;
  return {
    id: row.id,
    modelId: row.modelId,
    surface: row.surface,
    mode: row.mode,
    sandbox: row.sandbox,
    status: row.status,
    input: row.input,
    output: row.output,
    errorCode: row.errorCode,
    errorMessage: row.errorMessage,
    reservedCredits: row.costReservedCredits,
    settledCredits: row.costSettledCredits,
    createdAt: row.createdAt.toISOString(),
    startedAt: row.startedAt?.toISOString() ?? null,
    completedAt: row.completedAt?.toISOString() ?? null,
  };
}

/** Files of a record with no provider request id (it never reached the provider): by its generation. */
async function generationAssets(ctx: Ctx, requestId: string | null) {
  if (!requestId) return [];
  const rows = await ctx.db
    .select()
    .from(assets)
    .where(and(eq(assets.userId, ctx.principal.userId), eq(assets.generationId, requestId), ne(assets.status, "deleted")))
    .orderBy(asc(assets.createdAt), asc(assets.id));
  return rows.map(toAsset);
}

/**
 * The dashboard's Activity detail: the record (found by its own id or by the provider's request
 * id), the generation behind it (input, output, reserved and settled credits) and its files, read
 * through GET /me/activity/{falRequestId}'s own domain function. Owner in every WHERE: another
 * user's record is exactly as missing as none.
 */
export async function getActivityDetail(ctx: Ctx, id: string) {
  const record = await findRecord(ctx, id);
  const [generation, files] = await Promise.all([
    findGeneration(ctx, record.requestId),
    record.providerRequestId ? getActivityWithAssets(ctx, record.providerRequestId).then((r) => r.assets) : generationAssets(ctx, record.requestId),
  ]);
  return { record: { ...toActivityRecord(record), falRequestId: record.providerRequestId }, generation, assets: files };
}
