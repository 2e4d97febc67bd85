import { randomUUID } from "node:crypto";
import { and, eq, gte, sql } from "drizzle-orm";
import type { Executor } from "@/db/client";
import { apiKeyMonthlySpend, apiKeys, balances, creditTransactions, type TransactionType } from "@/db/schema";
import { ApiError } from "@/lib/http/errors";
import { creditsToRub, CREDITS_PER_RUB } from "@/lib/money/credits";
import { env } from "@/lib/env";

/**
 * STAND-IN for the lead's ledger core (lib/billing/ledger.ts in main), written against the
 * interface in the brief so the generation engine can be built and tested before it lands. At
 * merge time main's file replaces this one wholesale.
 */
export type CreditTransaction = typeof creditTransactions.$inferSelect;
export type Move = { applied: boolean; transaction: CreditTransaction | null; balance: number };

export function insufficientBalance(requiredCredits: number, availableCredits: number): ApiError {
  return new ApiError("insufficient_balance", "Balance too low for this request", {
    required: creditsToRub(requiredCredits),
    available: creditsToRub(availableCredits),
    recovery: { action: "topup", url: "/billing/topup", minAmountRub: env().MIN_TOPUP_RUB },
  });
}

export async function getBalanceCredits(db: Executor, userId: string): Promise<number> {
  const [row] = await db.select({ credits: balances.credits }).from(balances).where(eq(balances.userId, userId));
  return row?.credits ?? 0;
}

async function existing(db: Executor, key: string): Promise<CreditTransaction | null> {
  const [row] = await db.select().from(creditTransactions).where(eq(creditTransactions.idempotencyKey, key));
  return row ?? null;
}

async function move(
  db: Executor,
  o: { userId: string; amount: number; type: TransactionType; key: string; generationId?: string; apiKeyId?: string | null; description?: string; clamp?: boolean; spent?: number },
): Promise<Move> {
  return db.transaction(async (tx) => {
    const prior = await existing(tx, o.key);
    if (prior) return { applied: false, transaction: prior, balance: await getBalanceCredits(tx, o.userId) };
    await tx.insert(balances).values({ userId: o.userId }).onConflictDoNothing();
    let amount = o.amount;
    if (amount < 0 && o.clamp) amount = -Math.min(-amount, await getBalanceCredits(tx, o.userId));
    const [row] = await tx
      .update(balances)
      .set({ credits: sql`${balances.credits} + ${amount}`, spentCredits: sql`${balances.spentCredits} + ${o.spent ?? 0}`, updatedAt: new Date() })
      .where(and(eq(balances.userId, o.userId), gte(balances.credits, Math.max(0, -amount))))
      .returning({ credits: balances.credits });
    if (!row) throw insufficientBalance(-amount, await getBalanceCredits(tx, o.userId));
    const [transaction] = await tx
      .insert(creditTransactions)
      .values({
        id: randomUUID(),
        userId: o.userId,
        type: o.type,
        amount,
        balanceAfter: row.credits,
        description: o.description ?? null,
        idempotencyKey: o.key,
        generationId: o.generationId ?? null,
        apiKeyId: o.apiKeyId ?? null,
      })
      .returning();
    if (o.apiKeyId && o.spent) {
      await tx
        .update(apiKeys)
        .set({ lifetimeCostCredits: sql`${apiKeys.lifetimeCostCredits} + ${o.spent}`, lastUsedAt: new Date() })
        .where(eq(apiKeys.id, o.apiKeyId));
    }
    return { applied: true, transaction: transaction!, balance: row.credits };
  });
}

const monthOf = (d: Date) => `${d.toISOString().slice(0, 7)}-01`;

export async function reserveCredits(
  db: Executor,
  o: { userId: string; apiKeyId: string | null; generationId: string; credits: number; description?: string; now?: Date },
): Promise<Move> {
  return db.transaction(async (tx) => {
    if (o.apiKeyId) {
      const [key] = await tx.select({ limit: apiKeys.monthlyLimitRub }).from(apiKeys).where(eq(apiKeys.id, o.apiKeyId));
      if (key?.limit != null) {
        const month = monthOf(o.now ?? new Date());
        await tx.insert(apiKeyMonthlySpend).values({ apiKeyId: o.apiKeyId, month }).onConflictDoNothing();
        const [ok] = await tx
          .update(apiKeyMonthlySpend)
          .set({ spentCredits: sql`${apiKeyMonthlySpend.spentCredits} + ${o.credits}` })
          .where(
            and(
              eq(apiKeyMonthlySpend.apiKeyId, o.apiKeyId),
              eq(apiKeyMonthlySpend.month, month),
              sql`${apiKeyMonthlySpend.spentCredits} + ${o.credits} <= ${key.limit * CREDITS_PER_RUB}`,
            ),
          )
          .returning();
        if (!ok) throw new ApiError("key_limit_exceeded", "The key's monthly spending limit is reached");
      }
    }
    return move(tx, { userId: o.userId, amount: -o.credits, type: "generation_reserve", key: `reserve:${o.generationId}`, generationId: o.generationId, apiKeyId: o.apiKeyId, description: o.description, spent: o.credits });
  });
}

export async function settleGeneration(
  db: Executor,
  o: { userId: string; apiKeyId: string | null; generationId: string; reservedCredits: number; actualCredits: number; reservedAt?: Date },
): Promise<{ settledCredits: number; move: Move | null }> {
  const delta = o.actualCredits - o.reservedCredits;
  if (Math.abs(delta) <= 100) return { settledCredits: o.reservedCredits, move: null };
  const key = `settle:${o.generationId}`;
  if (delta < 0) {
    const m = await move(db, { userId: o.userId, amount: -delta, type: "generation_settle_refund", key, generationId: o.generationId, apiKeyId: o.apiKeyId, spent: delta });
    return { settledCredits: o.reservedCredits + delta, move: m };
  }
  const m = await move(db, { userId: o.userId, amount: -delta, type: "generation_settle_charge", key, generationId: o.generationId, apiKeyId: o.apiKeyId, clamp: true, spent: delta });
  return { settledCredits: o.reservedCredits - (m.transaction?.amount ?? 0), move: m };
}

export async function refundGeneration(
  db: Executor,
  o: { userId: string; apiKeyId: string | null; generationId: string; credits: number; reservedAt?: Date; description?: string },
): Promise<Move> {
  return move(db, { userId: o.userId, amount: o.credits, type: "generation_refund", key: `refund:${o.generationId}`, generationId: o.generationId, apiKeyId: o.apiKeyId, description: o.description, spent: -o.credits });
}

export async function grantCredits(
  db: Executor,
  o: { userId: string; credits: number; type: "topup" | "grant"; idempotencyKey: string; description?: string; paymentId?: string; actorUserId?: string },
): Promise<Move> {
  return move(db, { userId: o.userId, amount: o.credits, type: o.type, key: o.idempotencyKey, description: o.description });
}
