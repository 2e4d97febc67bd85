import { randomUUID } from "node:crypto";
import type { Db } from "@/db/client";
import { assets } from "@/db/schema";
import { assetKey } from "@/lib/assets/keys";
import type { ObjectStorage } from "@/lib/storage";

export type CoverAsset = typeof assets.$inferSelect;

/**
 * Stores a finished cover as an asset of kind `integration`, owned by the caller: listed and
 * deleted like any other asset (GET/DELETE /me/assets), its URL valid until then.
 */
export async function storeCover(
  db: Db,
  storage: ObjectStorage,
  o: { userId: string; bytes: Buffer; contentType: "image/jpeg"; sourceUrl: string | null; generationId: string | null },
): Promise<CoverAsset> {
  const id = randomUUID();
  const key = assetKey("result", id, "jpg");
  const { sizeBytes } = await storage.put(key, o.bytes, { contentType: o.contentType });
  try {
    const [row] = await db
      .insert(assets)
      .values({
        id,
        userId: o.userId,
        kind: "integration",
        generationId: o.generationId,
        sourceUrl: o.sourceUrl,
        s3Key: key,
        s3Bucket: storage.bucket,
        contentType: o.contentType,
        sizeBytes,
        status: "stored",
        publicUrl: storage.publicUrl(key),
      })
      .returning();
    return row!;
  } catch (err) {
    // No row, no object: an object nobody can list or delete must not stay behind.
    await storage.delete(key).catch(() => {});
    throw err;
  }
}
