import { pgTable, text } from "drizzle-orm/pg-core";
import { tstz } from "./_columns";

/**
 * Models an admin removed (`DELETE /admin/models`). The catalog seeder and `sync-catalog` skip
 * these ids, so a deleted model stays deleted across restarts; creating the id again through
 * `POST /admin/models` clears the row.
 */
export const modelTombstones = pgTable("model_tombstones", {
  modelId: text("model_id").primaryKey(),
  deletedAt: tstz("deleted_at").notNull().defaultNow(),
  /** The admin who removed it. */
  deletedBy: text("deleted_by"),
});
