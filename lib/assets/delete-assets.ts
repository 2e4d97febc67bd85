import { and, eq, inArray, ne } from "drizzle-orm";
import type { Executor } from "@/db/client";
import { assets } from "@/db/schema";
import { log } from "@/lib/core/logger";
import { getStorage } from "@/lib/storage";
import type { AssetRow } from "./rehost";

/**
 * Deletes assets for good: the object first (so its URL answers 404 from now on), then the row is
 * marked `deleted` and kept as a record. Deleting an object is idempotent, so a failure half-way
 * is repaired by deleting again. Storage must be configured (503 otherwise): an asset must not
 * be reported deleted while its file is still served.
 */
export async function deleteAssetRows(db: Executor, rows: AssetRow[]): Promise<string[]> {
  if (rows.length === 0) return [];
  const storage = getStorage();
  for (const row of rows) {
    if (row.s3Bucket === storage.bucket) await storage.delete(row.s3Key);
    else
      log.warn("asset object is in storage that is no longer configured; only its record is deleted", {
        assetId: row.id,
        bucket: row.s3Bucket,
      });
  }
  const ids = rows.map((r) => r.id);
  await db
    .update(assets)
    .set({ status: "deleted", deletedAt: new Date() })
    .where(and(inArray(assets.id, ids), ne(assets.status, "deleted")));
  return ids;
}

/** The owner's live asset, or null: another user's asset is exactly as missing as a missing one. */
export async function findLiveAsset(db: Executor, userId: string, id: string): Promise<AssetRow | null> {
  const [row] = await db
    .select()
    .from(assets)
    .where(and(eq(assets.id, id), eq(assets.userId, userId), ne(assets.status, "deleted")))
    .limit(1);
  return row ?? null;
}
