import type { ServiceContext } from "@/lib/auth/context";
import { and, asc, desc, eq, ne, or } from "drizzle-orm";
import { activity, assets, generationRequests } from "@/db/schema";
import { getActivityWithAssets } from "@/lib/assets/activity-assets";
import { toActivityRecord, toAsset } from "@/lib/assets/present";
import { notFound } from "@/lib/core/errors";
import { servedBy } from "../present";

export type ActivityDetail = Awaited<ReturnType<typeof getActivityDetail>>;

async function findRecord(ctx: ServiceContext, id: string) {
  const mine = eq(activity.userId, ctx.principal.userId);
  const [record] = await ctx.db
    .select()
    .from(activity)
    .where(and(mine, or(eq(activity.id, id), eq(activity.providerRequestId, id))))
    .orderBy(desc(activity.createdAt))
    .limit(1);
  return record ?? null;
}

/** A job's record by its generation (request) id: written when the job ends. */
async function findRecordOfRequest(ctx: ServiceContext, requestId: string) {
  const [record] = await ctx.db
    .select()
    .from(activity)
    .where(and(eq(activity.userId, ctx.principal.userId), eq(activity.requestId, requestId)))
    .orderBy(desc(activity.createdAt))
    .limit(1);
  return record ?? null;
}

async function findGeneration(ctx: ServiceContext, requestId: string | null) {
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
    operation: row.operation,
    apiKeyId: row.apiKeyId,
    providerRequestId: row.providerRequestId,
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
    servedBy: servedBy(row),
  };
}

type Generation = NonNullable<Awaited<ReturnType<typeof findGeneration>>>;

/** An unfinished job in the record's shape: nothing charged yet beyond the reserve, no duration. */
const pendingRecord = (g: Generation) => ({
  id: g.id,
  modelId: g.modelId,
  operation: g.operation,
  credits: 0,
  status: g.status,
  errorCode: g.errorCode,
  requestId: g.id,
  apiKeyId: g.apiKeyId,
  durationMs: null,
  createdAt: g.createdAt,
  falRequestId: g.providerRequestId,
});

/** Files of a record with no provider request id (it never reached the provider): by its generation. */
async function generationAssets(ctx: ServiceContext, requestId: string | null) {
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
export async function getActivityDetail(ctx: ServiceContext, id: string) {
  let record = await findRecord(ctx, id);
  if (!record) {
    // A request id (the Activity page links unfinished jobs by it): the job's record once it
    // ended, else the job itself, shown as a record in progress.
    const generation = await findGeneration(ctx, id);
    if (!generation) throw notFound("Activity record");
    record = await findRecordOfRequest(ctx, id);
    if (!record) return { record: pendingRecord(generation), generation, assets: await generationAssets(ctx, id) };
  }
  const [generation, files] = await Promise.all([
    findGeneration(ctx, record.requestId),
    record.providerRequestId
      ? getActivityWithAssets(ctx, record.providerRequestId).then((r) => r.assets)
      : generationAssets(ctx, record.requestId),
  ]);
  return { record: { ...toActivityRecord(record), falRequestId: record.providerRequestId }, generation, assets: files };
}
