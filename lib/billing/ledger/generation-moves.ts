import { sql, type SQL } from "drizzle-orm";
import type { Executor } from "@/db/client";
import { publishDebit } from "./debit-hook";
import { monthOf } from "./month";
import { assertAmount, newId, RETURNING, runMove, type Move } from "./moves";

/** Differences of 0.01 ₽ or less between the reserved and the real cost are not settled (spec, Pricing). */
export const SETTLE_TOLERANCE_CREDITS = 100;

type CreditBack = {
  userId: string;
  apiKeyId: string | null;
  generationId: string;
  credits: number;
  type: "generation_refund" | "generation_settle_refund";
  idempotencyKey: string;
  reservedAt?: Date;
  description?: string;
};

/** A credit-back's values: plain values, or the placeholders of a statement prepared once (`refundCtes`). */
type CreditBackValues = Record<
  "id" | "userId" | "apiKeyId" | "generationId" | "credits" | "type" | "key" | "month" | "description",
  unknown
>;

/** Gives generation credits back and undoes them in the spend counters (tier, key lifetime, key month), when `gate` holds. */
function creditBackCtes(v: CreditBackValues, gate: SQL): SQL {
  return sql`credited as (
      update balances set credits = credits + ${v.credits}, spent_credits = greatest(spent_credits - ${v.credits}, 0), updated_at = now()
       where user_id = ${v.userId}${gate}
      returning credits
    ), key_totals as (
      update api_keys set lifetime_cost_credits = greatest(lifetime_cost_credits - ${v.credits}, 0)
       where id = ${v.apiKeyId} and exists (select 1 from credited)
    ), key_month as (
      update api_key_monthly_spend set spent_credits = greatest(spent_credits - ${v.credits}, 0)
       where api_key_id = ${v.apiKeyId} and month = ${v.month} and exists (select 1 from credited)
    )`;
}

function creditBackInsert(v: CreditBackValues): SQL {
  return sql`insert into credit_transactions (id, user_id, type, amount, balance_after, description, idempotency_key, generation_id, api_key_id)
    select ${v.id}, ${v.userId}, ${v.type}, ${v.credits}, credited.credits,
           ${v.description}, ${v.key}, ${v.generationId}, ${v.apiKeyId}
      from credited`;
}

function creditBackValues(input: CreditBack): CreditBackValues {
  return {
    id: newId(),
    userId: input.userId,
    apiKeyId: input.apiKeyId,
    generationId: input.generationId,
    credits: input.credits,
    type: input.type,
    key: input.idempotencyKey,
    month: monthOf(input.reservedAt ?? new Date()),
    description: input.description ?? null,
  };
}

function creditBackStatement(input: CreditBack): SQL {
  const v = creditBackValues(input);
  return sql`with ${creditBackCtes(v, sql``)} ${creditBackInsert(v)} ${RETURNING}`;
}

export type RefundInput = {
  userId: string;
  apiKeyId: string | null;
  generationId: string;
  credits: number;
  reservedAt?: Date;
  description?: string;
};

/** Returns a failed or cancelled generation's whole reserve, exactly once per generation. */
export async function refundGeneration(db: Executor, input: RefundInput): Promise<Move> {
  const refund = refundOf(input);
  const move = await runMove(db, refund.idempotencyKey, creditBackStatement(refund));
  // A reserve always created the balances row, so an empty answer means the user is gone.
  return move ?? { applied: false, transaction: null, balance: 0 };
}

function refundOf(input: RefundInput): CreditBack {
  assertAmount(input.credits, "refund");
  const idempotencyKey = `refund:${input.generationId}`;
  return { ...input, type: "generation_refund", idempotencyKey, description: input.description ?? "Generation refunded" };
}

const REFUND_PLACEHOLDERS = Object.fromEntries(
  ["id", "userId", "apiKeyId", "generationId", "credits", "type", "key", "month", "description"].map((name) => [
    name,
    sql.placeholder(`refund_${name}`),
  ]),
) as CreditBackValues;

/**
 * `refundGeneration` as CTEs of the caller's statement, built once (values as placeholders,
 * `refundValues` gives them): the generation's ending refunds in the statement that ends it. It
 * moves only when the CTE `after` has a row (the ending's conditional status change won), so at
 * most once per generation and never as a duplicate key. `from` replaces values by expressions
 * over the caller's rows (the job's key as the row has it now).
 */
export function refundCtes(after: string, from: { apiKeyId?: SQL } = {}): SQL {
  const v = { ...REFUND_PLACEHOLDERS, ...from };
  return sql`${creditBackCtes(v, sql` and exists (select 1 from ${sql.identifier(after)})`)}, refunded as (${creditBackInsert(v)} returning 1 as n)`;
}

/** The values of `refundCtes`' placeholders for one refund. */
export function refundValues(input: RefundInput): Record<string, unknown> {
  return Object.fromEntries(Object.entries(creditBackValues(refundOf(input))).map(([name, value]) => [`refund_${name}`, value]));
}

export type RefundValues = ReturnType<typeof refundValues>;

export type SettleInput = {
  userId: string;
  apiKeyId: string | null;
  generationId: string;
  reservedCredits: number;
  actualCredits: number;
  reservedAt?: Date;
};

/**
 * Reconciles a finished generation's real cost with its reserve: the excess comes back, a shortfall is
 * charged — but only what the balance holds, since the work is already done and a balance never goes
 * negative; `settledCredits` is what the generation finally cost the user.
 */
export async function settleGeneration(db: Executor, input: SettleInput): Promise<{ settledCredits: number; move: Move | null }> {
  assertAmount(input.reservedCredits, "settle reserved");
  assertAmount(input.actualCredits, "settle actual");
  const difference = input.actualCredits - input.reservedCredits;
  if (Math.abs(difference) <= SETTLE_TOLERANCE_CREDITS) return { settledCredits: input.reservedCredits, move: null };
  const idempotencyKey = `settle:${input.generationId}`;

  if (difference < 0) {
    const move = await runMove(
      db,
      idempotencyKey,
      creditBackStatement({
        ...input,
        credits: -difference,
        type: "generation_settle_refund",
        idempotencyKey,
        description: "Generation cost less than reserved",
      }),
    );
    return { settledCredits: input.reservedCredits - Math.abs(move?.transaction?.amount ?? 0), move };
  }

  const month = monthOf(input.reservedAt ?? new Date());
  const move = await runMove(
    db,
    idempotencyKey,
    sql`
      with locked as (
        select user_id, least(credits, ${difference}) as take from balances where user_id = ${input.userId} for update
      ), debited as (
        update balances b set credits = b.credits - locked.take, spent_credits = b.spent_credits + locked.take, updated_at = now()
          from locked where b.user_id = locked.user_id
        returning b.credits, locked.take
      ), key_totals as (
        update api_keys set lifetime_cost_credits = lifetime_cost_credits + (select take from debited)
         where id = ${input.apiKeyId} and exists (select 1 from debited)
      ), key_month as (
        update api_key_monthly_spend set spent_credits = spent_credits + (select take from debited)
         where api_key_id = ${input.apiKeyId} and month = ${month} and exists (select 1 from debited)
      )
      insert into credit_transactions (id, user_id, type, amount, balance_after, description, idempotency_key, generation_id, api_key_id)
      select ${newId()}, ${input.userId}, 'generation_settle_charge', -debited.take, debited.credits,
             'Generation cost more than reserved', ${idempotencyKey}, ${input.generationId}, ${input.apiKeyId}
        from debited
      ${RETURNING}`,
  );
  if (move?.applied) publishDebit(db, input.userId, move.balance);
  return { settledCredits: input.reservedCredits + Math.abs(move?.transaction?.amount ?? 0), move };
}
