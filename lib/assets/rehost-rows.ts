import { randomUUID } from "node:crypto";
import { and, eq, ne, notInArray, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { preparedQuery } from "@/db/prepared";
import { assets } from "@/db/schema";
import type { ObjectStorage } from "@/lib/storage";
import { assetKey } from "./keys";
import type { RehostOptions } from "./rehost";

export type AssetRow = typeof assets.$inferSelect;

// The two statements every stored file runs, built once per database handle (db/prepared).
const placeholders = <K extends string>(...names: K[]) =>
  Object.fromEntries(names.map((n) => [n, sql.placeholder(n)])) as unknown as Record<K, ReturnType<typeof sql.placeholder>>;
const claimAsset = preparedQuery((db) =>
  db
    .insert(assets)
    .values(
      placeholders("id", "userId", "kind", "generationId", "falRequestId", "sourceUrl", "s3Key", "s3Bucket", "status", "error") as never,
    )
    .onConflictDoNothing({ target: [assets.generationId, assets.sourceUrl] })
    .returning()
    .prepare("asset_claim"),
);
const markStored = preparedQuery((db) =>
  db
    .update(assets)
    .set({
      status: "stored",
      error: null,
      s3Key: sql`${sql.placeholder("key")}`,
      s3Bucket: sql`${sql.placeholder("bucket")}`,
      contentType: sql`${sql.placeholder("contentType")}`,
      sizeBytes: sql`${sql.placeholder("sizeBytes")}`,
      publicUrl: sql`${sql.placeholder("publicUrl")}`,
    })
    .where(and(eq(assets.id, sql.placeholder("id")), ne(assets.status, "deleted")))
    .returning()
    .prepare("asset_stored"),
);

/**
 * Inserts the file's row, or finds the one an earlier or concurrent run inserted. A new row gets
 * its key at once: the final one when the type is already known (`ext`), else a provisional one.
 */
export async function claimRow(
  db: Db,
  storage: ObjectStorage,
  o: RehostOptions,
  sourceUrl: string,
  init: { ext?: string; error?: string },
): Promise<AssetRow> {
  const id = randomUUID();
  const [inserted] = await claimAsset(db).execute({
    id,
    userId: o.userId,
    kind: o.kind ?? "result",
    generationId: o.generationId,
    falRequestId: o.falRequestId ?? null,
    sourceUrl,
    s3Key: assetKey("result", id, init.ext),
    s3Bucket: storage.bucket,
    status: init.error === undefined ? "pending" : "failed",
    error: init.error ?? null,
  });
  if (inserted) return inserted;
  const [existing] = await db
    .select()
    .from(assets)
    .where(and(eq(assets.generationId, o.generationId), eq(assets.sourceUrl, sourceUrl)));
  return existing!;
}

/** Updates never touch a row its owner has deleted in the meantime. */
const live = (id: string) => and(eq(assets.id, id), ne(assets.status, "deleted"));

export async function reload(db: Db, id: string): Promise<AssetRow> {
  const [row] = await db.select().from(assets).where(eq(assets.id, id));
  return row!;
}

export async function markFailed(db: Db, id: string, error: string): Promise<AssetRow> {
  // A concurrent run (a webhook and the polling fallback) may have stored the file meanwhile:
  // its copy and its URL stand, and this run's failure changes nothing.
  const [failed] = await db
    .update(assets)
    .set({ status: "failed", error })
    .where(and(eq(assets.id, id), notInArray(assets.status, ["deleted", "stored"])))
    .returning();
  return failed ?? (await reload(db, id));
}

/** Records the object's final key before it is written (see `rehostOne`). */
export async function recordFinalKey(db: Db, id: string, key: string, bucket: string): Promise<void> {
  await db.update(assets).set({ s3Key: key, s3Bucket: bucket }).where(live(id));
}

/** Marks a written file stored; null when its owner deleted it meanwhile. */
export async function markRowStored(
  db: Db,
  written: { id: string; key: string; contentType: string; sizeBytes: number; publicUrl: string },
  bucket: string,
): Promise<AssetRow | null> {
  const [stored] = await markStored(db).execute({ ...written, bucket });
  return stored ?? null;
}
