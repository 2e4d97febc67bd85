import { and, count, desc, eq, type SQL } from "drizzle-orm";
import type { Executor } from "@/db/client";
import { creditTransactions, type TransactionType } from "@/db/schema";

export type TransactionFilter = { userId?: string; type?: TransactionType; limit: number; offset: number };

/** A ledger row's public columns (the admin listing adds the user's e-mail). */
export const transactionColumns = {
  id: creditTransactions.id,
  userId: creditTransactions.userId,
  type: creditTransactions.type,
  amount: creditTransactions.amount,
  balanceAfter: creditTransactions.balanceAfter,
  description: creditTransactions.description,
  createdAt: creditTransactions.createdAt,
};

type Row = Pick<typeof creditTransactions.$inferSelect, keyof typeof transactionColumns>;

/** The public shape of a ledger row (spec "Credit transaction"); idempotency keys stay inside. */
export const transactionView = (row: Row) => ({
  id: row.id,
  userId: row.userId,
  type: row.type,
  amount: row.amount,
  balanceAfter: row.balanceAfter,
  description: row.description,
  createdAt: row.createdAt.toISOString(),
});
export type TransactionView = ReturnType<typeof transactionView>;

/**
 * Ledger rows newest first, one page and the total. With a user: credit_transactions_user_type_idx
 * (or _user_created_idx); across users: credit_transactions_created_idx. Callers put the owner in
 * `userId`, so another user's rows are never reachable.
 */
export async function listTransactions(db: Executor, filter: TransactionFilter) {
  const conditions: SQL[] = [];
  if (filter.userId !== undefined) conditions.push(eq(creditTransactions.userId, filter.userId));
  if (filter.type) conditions.push(eq(creditTransactions.type, filter.type));
  const where = and(...conditions);
  const [rows, [total]] = await Promise.all([
    db
      .select(transactionColumns)
      .from(creditTransactions)
      .where(where)
      .orderBy(desc(creditTransactions.createdAt), desc(creditTransactions.id))
      .limit(filter.limit)
      .offset(filter.offset),
    db.select({ n: count() }).from(creditTransactions).where(where),
  ]);
  return { items: rows.map(transactionView), total: total?.n ?? 0, limit: filter.limit, offset: filter.offset };
}
