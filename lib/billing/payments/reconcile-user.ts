import { and, desc, eq, gt, inArray } from "drizzle-orm";
import type { Db } from "@/db/client";
import { payments } from "@/db/schema";
import { log } from "@/lib/core/logger";
import { reconcileQuietly } from "./reconcile-payment";

const DAY_MS = 86_400_000;

/**
 * The user is back on the Billing page (perhaps from the provider's page): their few newest
 * payments still pending from the last day are re-read from the provider, so a paid top-up shows
 * up even when its notification is late or lost. The page waits at most `budgetMs` for it; a slow
 * provider finishes in the background (and the sweep catches anything left).
 */
export async function reconcileUserPending(db: Db, userId: string, options: { max?: number; budgetMs?: number } = {}): Promise<void> {
  const rows = await db
    .select()
    .from(payments)
    .where(
      and(
        eq(payments.userId, userId),
        inArray(payments.status, ["pending", "waiting_for_capture"]),
        gt(payments.createdAt, new Date(Date.now() - DAY_MS)),
      ),
    )
    .orderBy(desc(payments.createdAt))
    .limit(options.max ?? 5);
  if (rows.length === 0) return;
  const work = Promise.all(rows.map((row) => reconcileQuietly(db, row))).catch((err: unknown) =>
    log.error("reconcile on return failed", { userId, error: err }),
  );
  let timer: NodeJS.Timeout | undefined;
  const budget = new Promise<void>((resolve) => (timer = setTimeout(resolve, options.budgetMs ?? 3000)));
  await Promise.race([work, budget]);
  clearTimeout(timer);
}
