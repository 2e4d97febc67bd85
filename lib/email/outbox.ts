import { desc, isNotNull } from "drizzle-orm";
import type { Executor } from "@/db/client";
import { devMail } from "@/db/schema";

export type OutboxLink = { id: string; to: string; url: string; createdAt: Date };

/**
 * The newest sign-in links in the outbox, for /dev/mailbox: the recipient, the link and when,
 * nothing else of any mail (a developer needs the link; other mail content stays in the table).
 */
export async function listOutboxLinks(db: Executor, limit = 50): Promise<OutboxLink[]> {
  const rows = await db
    .select({ id: devMail.id, to: devMail.to, url: devMail.url, createdAt: devMail.createdAt })
    .from(devMail)
    .where(isNotNull(devMail.url))
    .orderBy(desc(devMail.createdAt))
    .limit(limit);
  return rows.map((r) => ({ ...r, url: r.url! }));
}
