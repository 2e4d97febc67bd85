import type { activity, assets } from "@/db/schema";

/** An asset row → the spec's Asset (plus `kind`: upload, result or integration). */
export function toAsset(row: typeof assets.$inferSelect) {
  return {
    id: row.id,
    kind: row.kind,
    falRequestId: row.falRequestId,
    sourceUrl: row.sourceUrl,
    s3Key: row.s3Key,
    s3Bucket: row.s3Bucket,
    contentType: row.contentType,
    sizeBytes: row.sizeBytes,
    status: row.status,
    error: row.error,
    publicUrl: row.publicUrl,
    createdAt: row.createdAt.toISOString(),
  };
}

/** An activity row → the spec's Activity record. */
export function toActivityRecord(row: typeof activity.$inferSelect) {
  return {
    id: row.id,
    modelId: row.modelId,
    operation: row.operation,
    credits: row.credits,
    status: row.status,
    errorCode: row.errorCode,
    requestId: row.requestId,
    apiKeyId: row.apiKeyId,
    durationMs: row.durationMs,
    createdAt: row.createdAt.toISOString(),
    // Who served the job and the providers left before it (not for uploads): the service's own extension.
    provider: row.provider,
    attempts: row.attempts?.map(({ provider, outcome, reason }) => ({ provider, outcome, reason })) ?? [],
  };
}
