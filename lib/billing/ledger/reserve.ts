import { is, sql, type SQL } from "drizzle-orm";
import { PgTransaction } from "drizzle-orm/pg-core";
import { rawRows, type Executor } from "@/db/client";
import { DomainError } from "@/lib/core/errors";
import { env } from "@/lib/core/env";
import { CREDITS_PER_RUB, creditsToRub } from "@/lib/pricing/credits";
import { publishDebit } from "./debit-hook";
import { monthOf } from "./month";
import {
  assertAmount,
  existingMove,
  getBalanceCredits,
  isUniqueViolation,
  newId,
  RETURNING,
  runMove,
  toTransaction,
  type Move,
  type TransactionRow,
} from "./moves";

/** 402 with the spec's fields: amounts in ₽, and the smallest top-up that covers the shortfall. */
export function insufficientBalance(requiredCredits: number, availableCredits: number): DomainError {
  const shortfallRub = Math.ceil(Math.max(0, requiredCredits - availableCredits) / CREDITS_PER_RUB);
  return new DomainError("insufficient_balance", "Balance too low for this generation; top up to continue", {
    required: creditsToRub(requiredCredits),
    available: creditsToRub(availableCredits),
    recovery: { action: "topup", url: "/billing/topup", minAmountRub: Math.max(env().MIN_TOPUP_RUB, shortfallRub) },
  });
}

export type ReserveInput = {
  userId: string;
  apiKeyId: string | null;
  generationId: string;
  credits: number;
  description?: string;
  now?: Date;
};

/**
 * Debits a generation's quote before anything runs. With a key, the key's monthly spend moves in the
 * same statement. A key without a cap takes that one statement and no lock; a key with a cap is
 * checked in a transaction whose first statement locks the month's spend row and refuses to pass the
 * cap, so parallel requests cannot overrun it either.
 */
export async function reserveCredits(db: Executor, input: ReserveInput): Promise<Move> {
  assertAmount(input.credits, "reserve");
  const key = `reserve:${input.generationId}`;
  const month = monthOf(input.now ?? new Date());
  const debit = reserveStatement(input, key, month);
  const apiKeyId = input.apiKeyId;
  if (!apiKeyId) return finishReserve(db, input, key, await runMove(db, key, debit));

  const uncapped = await runMove(db, key, reserveStatement(input, key, month, { onlyWithoutCap: true }));
  if (uncapped || !(await keyHasCap(db, apiKeyId))) return finishReserve(db, input, key, uncapped);

  const cappedReserve = async (tx: Executor) => {
    // Locks this key's month row (created at 0 if new) and says whether the debit still fits the cap.
    const capped = await rawRows<{ ok: boolean }>(
      tx,
      sql`insert into api_key_monthly_spend as s (api_key_id, month, spent_credits) values (${apiKeyId}, ${month}, 0)
          on conflict (api_key_id, month) do update set spent_credits = s.spent_credits
            where s.spent_credits + ${input.credits} <= ${capOf(apiKeyId)}
          returning s.spent_credits + ${input.credits} <= ${capOf(apiKeyId)} as ok`,
    );
    if (!capped[0]?.ok) {
      // A replay of a reserve that already went through must not be refused by the cap it filled.
      const replay = await existingMove(tx, key);
      if (replay.transaction) return { move: replay };
      return { keyLimit: true as const };
    }
    const rows = await rawRows<TransactionRow>(tx, debit);
    return { move: rows[0] ? { applied: true, transaction: toTransaction(rows[0]), balance: Number(rows[0].balance_after) } : null };
  };
  const outcome = is(db, PgTransaction)
    ? await cappedReserve(db)
    : await db.transaction(cappedReserve).catch(async (error: unknown) => {
        if (isUniqueViolation(error)) return { move: await existingMove(db, key) };
        throw error;
      });
  if ("keyLimit" in outcome) {
    throw new DomainError("key_limit_exceeded", "This API key has reached its monthly spending limit");
  }
  return finishReserve(db, input, key, outcome.move);
}

async function keyHasCap(db: Executor, apiKeyId: string): Promise<boolean> {
  const rows = await rawRows<{ capped: boolean }>(
    db,
    sql`select monthly_limit_rub is not null as capped from api_keys where id = ${apiKeyId}`,
  );
  return rows[0]?.capped ?? false;
}

/** The key's monthly cap in credits; no cap compares as unlimited. */
const capOf = (apiKeyId: string): SQL =>
  sql`coalesce((select monthly_limit_rub::bigint * ${CREDITS_PER_RUB} from api_keys where id = ${apiKeyId}), 9223372036854775807)`;

function reserveStatement(input: ReserveInput, key: string, month: string, options: { onlyWithoutCap?: boolean } = {}): SQL {
  return sql`with ${reserveDebitCtes(input, month, options)} ${reserveLedgerInsert(input, key)} ${RETURNING}`;
}

/** `debited` (the new balance, a row only when the debit happened) and the key's spend counters. */
function reserveDebitCtes(input: ReserveInput, month: string, options: { onlyWithoutCap?: boolean } = {}): SQL {
  const amount = input.credits;
  const withoutCap = options.onlyWithoutCap
    ? sql`and not exists (select 1 from api_keys where id = ${input.apiKeyId} and monthly_limit_rub is not null)`
    : sql``;
  return sql`
    debited as (
      update balances set credits = credits - ${amount}, spent_credits = spent_credits + ${amount}, updated_at = now()
       where user_id = ${input.userId} and credits >= ${amount} ${withoutCap}
      returning credits
    ), key_totals as (
      update api_keys set lifetime_cost_credits = lifetime_cost_credits + ${amount}, last_used_at = now()
       where id = ${input.apiKeyId} and exists (select 1 from debited)
    ), key_month as (
      insert into api_key_monthly_spend as s (api_key_id, month, spent_credits)
      select ${input.apiKeyId}, ${month}, ${amount} where ${input.apiKeyId}::text is not null and exists (select 1 from debited)
      on conflict (api_key_id, month) do update set spent_credits = s.spent_credits + excluded.spent_credits
    )`;
}

function reserveLedgerInsert(input: ReserveInput, key: string): SQL {
  return sql`
    insert into credit_transactions (id, user_id, type, amount, balance_after, description, idempotency_key, generation_id, api_key_id)
    select ${newId()}, ${input.userId}, 'generation_reserve', ${-input.credits}, debited.credits,
           ${input.description ?? null}, ${key}, ${input.generationId}, ${input.apiKeyId}
      from debited`;
}

/**
 * The reserve as CTEs for a caller that writes its own rows in the SAME statement (the engine's
 * job row: one round trip and one commit for "job + reserve"). It applies only where no lock is
 * needed — the balance covers the amount and the key has no monthly cap; otherwise `debited`
 * and `reserved` are empty and the caller falls back to `reserveCredits` in a transaction, which
 * tells a short balance (402) from a cap. `reserved` returns the ledger row's `balance_after`;
 * pass it to `afterReserve`. The generation id must be new (a replay is the caller's to prevent).
 */
export function reserveCtes(input: ReserveInput): SQL {
  assertAmount(input.credits, "reserve");
  const key = `reserve:${input.generationId}`;
  const month = monthOf(input.now ?? new Date());
  return sql`${reserveDebitCtes(input, month, { onlyWithoutCap: true })}, reserved as (${reserveLedgerInsert(input, key)} returning balance_after)`;
}

/** What a reserve made through `reserveCtes` owes the debit listeners. */
export function afterReserve(db: Executor, userId: string, balanceAfter: number): void {
  publishDebit(db, userId, balanceAfter);
}

async function finishReserve(db: Executor, input: ReserveInput, key: string, move: Move | null): Promise<Move> {
  if (move?.applied) publishDebit(db, input.userId, move.balance);
  if (move) return move;
  // Nothing moved: either the balance is short, or (rarely) a concurrent duplicate won the key.
  const replay = await existingMove(db, key);
  if (replay.transaction) return replay;
  throw insufficientBalance(input.credits, await getBalanceCredits(db, input.userId));
}
