import { desc } from "drizzle-orm";
import type { Executor } from "@/db/client";
import { changelogEntries } from "@/db/schema";

export async function listChangelog(db: Executor) {
  const rows = await db
    .select({ version: changelogEntries.version, date: changelogEntries.date, notes: changelogEntries.notes })
    .from(changelogEntries)
    .orderBy(desc(changelogEntries.date), desc(changelogEntries.createdAt));
  return { entries: rows };
}
