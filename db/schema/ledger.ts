import { sql } from "drizzle-orm";
import { check, index, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { createdAt, credits, tstz } from "./_columns";
import { users } from "./users";

/**
 * The cached balance of each user, in credits. Only lib/ledger writes it, always in the same
 * database transaction as the credit_transactions row that explains the move. The CHECK makes
 * an overdraft impossible even if a writer forgot its guard.
 */
export const balances = pgTable(
  "balances",
  {
    userId: text("user_id")
      .primaryKey()
      .references(() => users.id, { onDelete: "cascade" }),
    credits: credits("credits").notNull().default(0),
    /** Credits ever spent on generations (net of refunds); decides the skill-surface tier. */
    spentCredits: credits("spent_credits").notNull().default(0),
    /** Set when a low-balance notice went out; cleared when the balance rises above the threshold. */
    lowBalanceNotifiedAt: tstz("low_balance_notified_at"),
    updatedAt: tstz("updated_at").notNull().defaultNow(),
  },
  (t) => [check("balances_credits_nonnegative", sql`${t.credits} >= 0`)],
);

export const transactionTypes = [
  "topup",
  "grant",
  "clawback",
  "generation_reserve",
  "generation_settle_refund",
  "generation_settle_charge",
  "generation_refund",
] as const;
export type TransactionType = (typeof transactionTypes)[number];

/** Every balance move, append-only. */
export const creditTransactions = pgTable(
  "credit_transactions",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    type: text("type", { enum: transactionTypes }).notNull(),
    /** Signed credits: positive adds to the balance, negative takes from it. */
    amount: credits("amount").notNull(),
    /** The balance right after this row, in credits. */
    balanceAfter: credits("balance_after").notNull(),
    description: text("description"),
    /**
     * What makes this move unique, e.g. `reserve:<generationId>`, `refund:<generationId>`,
     * `payment:<paymentId>`. A retried operation hits the unique index instead of moving money twice.
     */
    idempotencyKey: text("idempotency_key").notNull(),
    generationId: text("generation_id"),
    paymentId: text("payment_id"),
    apiKeyId: text("api_key_id"),
    /** The admin who granted or clawed back, for the audit trail. */
    actorUserId: text("actor_user_id"),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("credit_transactions_idempotency_uq").on(t.idempotencyKey),
    // GET /me/transactions and /admin/users/{id}/transactions: newest first, optional type.
    index("credit_transactions_user_created_idx").on(t.userId, t.createdAt, t.id),
    // GET /me/transactions?type=… and /admin/users/{id}/transactions?type=…: one type, newest first.
    index("credit_transactions_user_type_created_idx").on(t.userId, t.type, t.createdAt, t.id),
    // GET /admin/transactions: newest first across users. Rows of one database transaction share
    // created_at, so every listing orders by (created_at, id) DESC and these indexes end in id. They
    // are ascending on purpose: read backwards they give DESC NULLS FIRST, which is what ORDER BY …
    // DESC means (a `DESC NULLS LAST` index does not match it and the planner sorts instead).
    index("credit_transactions_created_idx").on(t.createdAt, t.id),
    index("credit_transactions_generation_idx").on(t.generationId),
  ],
);
