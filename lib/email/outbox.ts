import { desc } from "drizzle-orm";
import type { Executor } from "@/db/client";
import { devMail } from "@/db/schema";

/** The newest captured mails, for /dev/mailbox. */
export async function listOutbox(db: Executor, limit = 50) {
  return db.select().from(devMail).orderBy(desc(devMail.createdAt)).limit(limit);
}
