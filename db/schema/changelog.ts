import { date, pgTable, text } from "drizzle-orm/pg-core";
import { createdAt } from "./_columns";

/** Published at GET /changelog.json, newest first. */
export const changelogEntries = pgTable("changelog_entries", {
  version: text("version").primaryKey(),
  date: date("date", { mode: "string" }).notNull(),
  notes: text("notes").array().notNull(),
  createdAt: createdAt(),
});
