import { and, count, desc, eq, ilike, type SQL } from "drizzle-orm";
import type { Executor } from "@/db/client";
import { creditTransactions, users, type TransactionType } from "@/db/schema";
import { escapeLike } from "@/lib/core/escape-like";
import { transactionColumns, transactionView, type TransactionView } from "./list-transactions";

/** `user`: a user's id (exact) or part of an e-mail address (case-insensitive). */
export type AdminTransactionFilter = { user?: string; type?: TransactionType; limit: number; offset: number };
export type AdminTransactionView = TransactionView & { email: string | null };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The admin Transactions page: ledger rows newest first with their user's e-mail, filtered by a
 * user (an id as the user page links it, or any part of an e-mail address) and a type.
 */
export async function listAdminTransactions(db: Executor, filter: AdminTransactionFilter) {
  const conditions: SQL[] = [];
  const user = filter.user?.trim();
  if (user) conditions.push(UUID.test(user) ? eq(creditTransactions.userId, user) : ilike(users.email, `%${escapeLike(user)}%`));
  if (filter.type) conditions.push(eq(creditTransactions.type, filter.type));
  const where = and(...conditions);
  const [rows, [total]] = await Promise.all([
    db
      .select({ ...transactionColumns, email: users.email })
      .from(creditTransactions)
      .leftJoin(users, eq(users.id, creditTransactions.userId))
      .where(where)
      .orderBy(desc(creditTransactions.createdAt), desc(creditTransactions.id))
      .limit(filter.limit)
      .offset(filter.offset),
    db.select({ n: count() }).from(creditTransactions).leftJoin(users, eq(users.id, creditTransactions.userId)).where(where),
  ]);
  const items: AdminTransactionView[] = rows.map((r) => ({ ...transactionView(r), email: r.email }));
  return { items, total: total?.n ?? 0, limit: filter.limit, offset: filter.offset };
}
