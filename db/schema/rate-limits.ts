import { bigint, pgTable, text } from "drizzle-orm/pg-core";
import { tstz } from "./_columns";

/**
 * Sliding-window rate limits shared by every app instance. One row per limited subject
 * (e.g. `key:<id>`, `user-gen:<id>`, `ip-webhook:<ip>`); `hits` holds the epoch-millisecond times
 * of the requests inside the window. A single conditional upsert prunes old hits and appends the
 * new one only while fewer than the limit remain, so the check is exact under concurrency.
 */
export const rateLimitWindows = pgTable("rate_limit_windows", {
  key: text("key").primaryKey(),
  hits: bigint("hits", { mode: "number" }).array().notNull().default([]),
  updatedAt: tstz("updated_at").notNull().defaultNow(),
});
