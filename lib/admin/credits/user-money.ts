import type { Executor } from "@/db/client";
import type { TransactionType } from "@/db/schema";
import { assertUserExists } from "@/lib/admin/users/get-user";
import { listTransactions } from "@/lib/billing/ledger/list-transactions";
import { windowUsage } from "@/lib/billing/usage/window-usage";
import type { UsageWindow } from "@/lib/billing/usage/windows";

/** GET /admin/users/{id}/transactions: 404 for a missing user, an empty page for one without moves. */
export async function userTransactions(db: Executor, userId: string, query: { type?: TransactionType; limit: number; offset: number }) {
  await assertUserExists(db, userId);
  return listTransactions(db, { ...query, userId });
}

/** GET /admin/users/{id}/usage. */
export async function userUsage(db: Executor, userId: string, windows: UsageWindow[]) {
  await assertUserExists(db, userId);
  return { windows: await windowUsage(db, userId, windows) };
}
