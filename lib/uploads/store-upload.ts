import { randomUUID } from "node:crypto";
import { rm } from "node:fs/promises";
import type { Readable } from "node:stream";
import { and, eq } from "drizzle-orm";
import sharp from "sharp";
import type { Db } from "@/db/client";
import { assets, uploads } from "@/db/schema";
import { assetKey } from "@/lib/assets/keys";
import { env } from "@/lib/core/env";
import { DomainError, notFound } from "@/lib/core/errors";
import type { ObjectStorage } from "@/lib/storage";
import { extensionFor } from "@/lib/storage/media-types";
import { spoolToFile } from "@/lib/storage/spool";
import { classifyUpload, corruptFile, HEADER_CHECKED_IMAGES, type UploadContentType } from "./classify";
import { tooLarge } from "./multipart";

export type UploadInput = {
  stream: Readable;
  declaredType: string | null;
  filename: string | null;
};

export type StoredUpload = {
  asset: typeof assets.$inferSelect;
  upload: typeof uploads.$inferSelect;
  /** For generations: the public URL (local) or a signed URL (S3). */
  providerUrl: string;
};

/** Keeps the last path segment (browsers may send `C:\fakepath\x.png`) without control characters. */
export function cleanFilename(name: string | null): string | null {
  if (!name) return null;
  const last = name
    .split(/[\\/]/)
    .pop()!
    .replace(/[\u0000-\u001f\u007f]/g, "")
    .trim();
  return last ? last.slice(0, 255) : null;
}

/**
 * Stores one uploaded file for its owner: spooled to disk while counted (413 past the limit),
 * typed by its bytes once the head has arrived (415 before the rest is read), image headers
 * checked (400 when corrupt), then put into storage and recorded as an asset and an upload.
 */
export async function storeUpload(
  db: Db,
  storage: ObjectStorage,
  userId: string,
  input: UploadInput,
  maxBytes = env().MAX_UPLOAD_BYTES,
  /**
   * An upload whose URL was handed out before its bytes arrived (fal's storage protocol,
   * lib/fal-protocol/storage.ts): its id, and the type its URL's extension promised (415 otherwise).
   * Its row is claimed before the object is written, so of concurrent PUTs one stores, the rest 409.
   */
  promised?: { id: string; contentType: UploadContentType },
): Promise<StoredUpload> {
  let contentType: UploadContentType | undefined;
  const spooled = await spoolToFile(input.stream, {
    dir: storage.spoolDir,
    maxBytes,
    tooLarge: () => tooLarge(maxBytes),
    onHead: async (head) => {
      contentType = await classifyUpload(head, input.declaredType);
      if (promised && contentType !== promised.contentType) {
        throw new DomainError(
          "unsupported_media_type",
          `The file's bytes are ${contentType}, but its upload was initiated as ${promised.contentType}`,
        );
      }
    },
  });
  const id = promised?.id ?? randomUUID();
  const key = assetKey("upload", id, extensionFor(contentType!));
  const row = {
    id,
    userId,
    kind: "upload" as const,
    s3Key: key,
    s3Bucket: storage.bucket,
    contentType,
    sizeBytes: spooled.sizeBytes,
    publicUrl: storage.publicUrl(key),
  };
  let claimed = false;
  try {
    if (HEADER_CHECKED_IMAGES.has(contentType!)) await assertImageHeader(spooled.path, contentType!);
    if (promised) claimed = await claimPromised(db, row);
    await storage.put(key, { filePath: spooled.path }, { contentType: contentType! });
  } catch (err) {
    if (claimed) await releaseClaim(db, id);
    throw err;
  } finally {
    await rm(spooled.path, { force: true });
  }

  try {
    const link = await storage.providerUrl(key, env().UPLOAD_URL_TTL_SECONDS);
    const [asset, upload] = await db.transaction(async (tx) => {
      const [asset] = claimed
        ? await tx
            .update(assets)
            .set({ status: "stored" })
            .where(and(eq(assets.id, id), eq(assets.status, "pending")))
            .returning()
        : await tx
            .insert(assets)
            .values({ ...row, status: "stored" })
            .returning();
      // The claimed row was deleted by its owner while the bytes were being stored.
      if (!asset) throw notFound("Upload");
      const [upload] = await tx
        .insert(uploads)
        .values({
          id,
          userId,
          assetId: id,
          filename: cleanFilename(input.filename),
          mimeType: contentType!,
          sizeBytes: spooled.sizeBytes,
          expiresAt: link.expiresAt,
        })
        .returning();
      return [asset, upload!] as const;
    });
    return { asset, upload, providerUrl: link.url };
  } catch (err) {
    // No row, no object: an object nobody can list or delete must not stay behind. The object is
    // this request's own: a promised upload's key is written only by the request holding its claim.
    await storage.delete(key).catch(() => {});
    if (claimed) await releaseClaim(db, id);
    throw err;
  }
}

/**
 * A promised upload's URL is public and may be PUT to many times at once: the first request to
 * insert its row (`pending`) owns the key and writes the object; the others are 409 before they
 * touch storage, so a loser can never overwrite or delete the winner's file.
 */
async function claimPromised(db: Db, row: typeof assets.$inferInsert): Promise<boolean> {
  const won = await db
    .insert(assets)
    .values({ ...row, status: "pending" })
    .onConflictDoNothing()
    .returning({ id: assets.id });
  if (!won.length) throw uploadUrlUsed();
  return true;
}

/** A claimed upload that failed gives its URL back, so the client may PUT again. */
async function releaseClaim(db: Db, id: string): Promise<void> {
  await db
    .delete(assets)
    .where(and(eq(assets.id, id), eq(assets.status, "pending")))
    .catch(() => {});
}

export const uploadUrlUsed = () => new DomainError("conflict", "This upload URL was already used; initiate a new upload");

async function assertImageHeader(file: string, type: string): Promise<void> {
  try {
    const meta = await sharp(file).metadata();
    if (!meta.width || !meta.height) throw new Error("no dimensions");
  } catch {
    throw corruptFile(type);
  }
}
