import { bigint, integer, pgTable, text } from "drizzle-orm/pg-core";
import { tstz } from "./_columns";

/**
 * Sliding-window rate limits shared by every app instance. One row per limited subject
 * (e.g. `key:<id>`, `user-gen:<id>`, `ip-webhook:<ip>`), of constant size whatever the limit: the
 * hits inside the window in at most 61 slots of a sixtieth of the window each, `times` the newest
 * hit of each slot (epoch ms, ascending) and `counts` its hits (lib/rate-limit/sliding-window.ts).
 * A single conditional upsert drops the slots that left the window and adds the new hit only while
 * fewer than the limit remain, so the check is exact under concurrency.
 */
export const rateLimitWindows = pgTable("rate_limit_windows", {
  key: text("key").primaryKey(),
  times: bigint("times", { mode: "number" }).array().notNull().default([]),
  counts: integer("counts").array().notNull().default([]),
  updatedAt: tstz("updated_at").notNull().defaultNow(),
});
