import { sql } from "drizzle-orm";
import type { Executor } from "@/db/client";
import { changelogEntries } from "@/db/schema";

/** The published changelog; edit here and it is upserted at start. */
export const changelog = [
  {
    version: "0.1.0",
    date: "2026-11-22",
    notes: [
      "Service skeleton: health, OpenAPI 3.1 document at /openapi.json and the reference at /docs.",
      "Runs on embedded defaults (PGlite, local storage) or on PostgreSQL via DATABASE_URL.",
    ],
  },
];

export async function seedChangelog(db: Executor) {
  await db
    .insert(changelogEntries)
    .values(changelog)
    .onConflictDoUpdate({
      target: changelogEntries.version,
      set: { date: sql`excluded.date`, notes: sql`excluded.notes` },
    });
}
