import { and, desc, eq, inArray } from "drizzle-orm";
import type { Db } from "@/db/client";
import { payments } from "@/db/schema";
import { reconcileQuietly } from "./reconcile-payment";

/**
 * The user is back on the Billing page (perhaps from the provider's page): their few newest
 * payments still pending are re-read from the provider, so a paid top-up shows up even when its
 * notification is late or lost.
 */
export async function reconcileUserPending(db: Db, userId: string, max = 5): Promise<void> {
  const rows = await db
    .select()
    .from(payments)
    .where(and(eq(payments.userId, userId), inArray(payments.status, ["pending", "waiting_for_capture"])))
    .orderBy(desc(payments.createdAt))
    .limit(max);
  for (const row of rows) await reconcileQuietly(db, row);
}
