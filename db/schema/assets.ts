import { bigint, index, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { createdAt, tstz } from "./_columns";
import { users } from "./users";

export const assetStatuses = ["pending", "stored", "failed", "deleted"] as const;

/**
 * A stored object: an upload or a re-hosted generation result. The URL stays valid until the
 * owner deletes the asset.
 */
export const assets = pgTable(
  "assets",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    kind: text("kind", { enum: ["upload", "result", "integration"] }).notNull(),
    generationId: text("generation_id"),
    /** The provider's request id the result came from. */
    falRequestId: text("fal_request_id"),
    /** Where the bytes came from (provider URL); null for uploads. */
    sourceUrl: text("source_url"),
    s3Key: text("s3_key").notNull(),
    s3Bucket: text("s3_bucket").notNull(),
    contentType: text("content_type"),
    sizeBytes: bigint("size_bytes", { mode: "number" }),
    status: text("status", { enum: assetStatuses }).notNull().default("pending"),
    error: text("error"),
    publicUrl: text("public_url"),
    createdAt: createdAt(),
    deletedAt: tstz("deleted_at"),
  },
  (t) => [
    // Re-hosting the same provider result twice finds the existing row instead of a duplicate.
    uniqueIndex("assets_generation_source_uq").on(t.generationId, t.sourceUrl),
    uniqueIndex("assets_s3_key_uq").on(t.s3Bucket, t.s3Key),
    index("assets_user_created_idx").on(t.userId, t.createdAt, t.id),
    index("assets_fal_request_idx").on(t.falRequestId),
  ],
);

/** A file a user uploaded for use as generation input. */
export const uploads = pgTable(
  "uploads",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    assetId: text("asset_id")
      .notNull()
      .references(() => assets.id, { onDelete: "cascade" }),
    filename: text("filename"),
    mimeType: text("mime_type").notNull(),
    sizeBytes: bigint("size_bytes", { mode: "number" }).notNull(),
    /** When the provider-facing link stops working (the display URL lives as long as the asset). */
    expiresAt: tstz("expires_at"),
    createdAt: createdAt(),
  },
  (t) => [index("uploads_user_created_idx").on(t.userId, t.createdAt, t.id)],
);
