import { eq, is, sql, type SQL } from "drizzle-orm";
import { PgTransaction } from "drizzle-orm/pg-core";
import { rawRows, type Executor } from "@/db/client";
import { balances, type TransactionType } from "@/db/schema";

// What every balance move shares: its row's shape, the duplicate-key answer, the amount check.

export type CreditTransaction = {
  id: string;
  userId: string;
  type: TransactionType;
  amount: number;
  balanceAfter: number;
  description: string | null;
  idempotencyKey: string;
  generationId: string | null;
  paymentId: string | null;
  apiKeyId: string | null;
  actorUserId: string | null;
  createdAt: Date;
};

/** `applied: false` means the key had already been used: nothing moved, `transaction` is the earlier row. */
export type Move = { applied: boolean; transaction: CreditTransaction | null; balance: number };

export type TransactionRow = {
  id: string;
  user_id: string;
  type: TransactionType;
  amount: string | number;
  balance_after: string | number;
  description: string | null;
  idempotency_key: string;
  generation_id: string | null;
  payment_id: string | null;
  api_key_id: string | null;
  actor_user_id: string | null;
  created_at: string | Date;
};

export const RETURNING = sql.raw(
  "returning id, user_id, type, amount, balance_after, description, idempotency_key, generation_id, payment_id, api_key_id, actor_user_id, created_at",
);

export function toTransaction(row: TransactionRow): CreditTransaction {
  return {
    id: row.id,
    userId: row.user_id,
    type: row.type,
    amount: Number(row.amount),
    balanceAfter: Number(row.balance_after),
    description: row.description,
    idempotencyKey: row.idempotency_key,
    generationId: row.generation_id,
    paymentId: row.payment_id,
    apiKeyId: row.api_key_id,
    actorUserId: row.actor_user_id,
    createdAt: row.created_at instanceof Date ? row.created_at : new Date(row.created_at),
  };
}

export function assertAmount(credits: number, what: string): void {
  if (!Number.isSafeInteger(credits) || credits < 0)
    throw new RangeError(`${what}: a non-negative integer of credits expected, got ${credits}`);
}

export function isUniqueViolation(error: unknown): boolean {
  for (let e: unknown = error; e && typeof e === "object"; e = (e as { cause?: unknown }).cause) {
    if ((e as { code?: unknown }).code === "23505") return true;
  }
  return false;
}

export async function getBalanceCredits(db: Executor, userId: string): Promise<number> {
  const [row] = await db.select({ credits: balances.credits }).from(balances).where(eq(balances.userId, userId));
  return row?.credits ?? 0;
}

export async function existingMove(db: Executor, idempotencyKey: string): Promise<Move> {
  const rows = await rawRows<TransactionRow>(
    db,
    sql`select id, user_id, type, amount, balance_after, description, idempotency_key, generation_id, payment_id,
               api_key_id, actor_user_id, created_at
          from credit_transactions where idempotency_key = ${idempotencyKey}`,
  );
  const transaction = rows[0] ? toTransaction(rows[0]) : null;
  return { applied: false, transaction, balance: transaction ? await getBalanceCredits(db, transaction.userId) : 0 };
}

/**
 * Runs one move statement; a duplicate idempotency key answers with the earlier row instead. Inside
 * a caller's transaction a duplicate aborts that transaction (no savepoint: two round trips saved on
 * every generation), so callers that pass a transaction make duplicates impossible with their own
 * guard first (the engine's conditional status change, the payment's guarded status change).
 */
export async function runMove(db: Executor, idempotencyKey: string, statement: SQL): Promise<Move | null> {
  try {
    const rows = await rawRows<TransactionRow>(db, statement);
    if (!rows[0]) return null;
    const transaction = toTransaction(rows[0]);
    return { applied: true, transaction, balance: transaction.balanceAfter };
  } catch (error) {
    if (isUniqueViolation(error) && !is(db, PgTransaction)) return existingMove(db, idempotencyKey);
    throw error;
  }
}

export const newId = () => `txn_${crypto.randomUUID().replaceAll("-", "")}`;
