import { eq, is, sql, type SQL } from "drizzle-orm";
import { PgTransaction } from "drizzle-orm/pg-core";
import { rawRows, type Executor } from "@/db/client";
import { balances, type TransactionType } from "@/db/schema";
import { DomainError } from "@/lib/errors";
import { env } from "@/lib/env";
import { CREDITS_PER_RUB, creditsToRub } from "@/lib/billing/pricing/credits";
import { publishDebit } from "./debit-hook";
import { monthOf } from "./month";

/**
 * The only writer of balances. Each move is ONE SQL statement: a conditional balance update whose
 * RETURNING feeds the ledger insert, so the balance and its explaining row commit together, the
 * database refuses an overdraft (`credits >= amount` in the WHERE, and the table's CHECK), and the
 * unique idempotency key turns a retried or concurrent duplicate into an error we answer with the
 * row that already exists. No read-then-write in JavaScript anywhere.
 */

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

type TransactionRow = {
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

const RETURNING = sql.raw(
  "returning id, user_id, type, amount, balance_after, description, idempotency_key, generation_id, payment_id, api_key_id, actor_user_id, created_at",
);

function toTransaction(row: TransactionRow): CreditTransaction {
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

/** Differences of 0.01 ₽ or less between the reserved and the real cost are not settled (spec, Pricing). */
export const SETTLE_TOLERANCE_CREDITS = 100;

function assertAmount(credits: number, what: string): void {
  if (!Number.isSafeInteger(credits) || credits < 0)
    throw new RangeError(`${what}: a non-negative integer of credits expected, got ${credits}`);
}

function isUniqueViolation(error: unknown): boolean {
  for (let e: unknown = error; e && typeof e === "object"; e = (e as { cause?: unknown }).cause) {
    if ((e as { code?: unknown }).code === "23505") return true;
  }
  return false;
}

export async function getBalanceCredits(db: Executor, userId: string): Promise<number> {
  const [row] = await db.select({ credits: balances.credits }).from(balances).where(eq(balances.userId, userId));
  return row?.credits ?? 0;
}

async function existingMove(db: Executor, idempotencyKey: string): Promise<Move> {
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
async function runMove(db: Executor, idempotencyKey: string, statement: SQL): Promise<Move | null> {
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

const newId = () => `txn_${crypto.randomUUID().replaceAll("-", "")}`;

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

/** Gives generation credits back and undoes them in the spend counters (tier, key lifetime, key month). */
function creditBackStatement(input: CreditBack): SQL {
  const amount = input.credits;
  const month = monthOf(input.reservedAt ?? new Date());
  return sql`
    with credited as (
      update balances set credits = credits + ${amount}, spent_credits = greatest(spent_credits - ${amount}, 0), updated_at = now()
       where user_id = ${input.userId}
      returning credits
    ), key_totals as (
      update api_keys set lifetime_cost_credits = greatest(lifetime_cost_credits - ${amount}, 0)
       where id = ${input.apiKeyId} and exists (select 1 from credited)
    ), key_month as (
      update api_key_monthly_spend set spent_credits = greatest(spent_credits - ${amount}, 0)
       where api_key_id = ${input.apiKeyId} and month = ${month} and exists (select 1 from credited)
    )
    insert into credit_transactions (id, user_id, type, amount, balance_after, description, idempotency_key, generation_id, api_key_id)
    select ${newId()}, ${input.userId}, ${input.type}, ${amount}, credited.credits,
           ${input.description ?? null}, ${input.idempotencyKey}, ${input.generationId}, ${input.apiKeyId}
      from credited
    ${RETURNING}`;
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
  assertAmount(input.credits, "refund");
  const idempotencyKey = `refund:${input.generationId}`;
  const move = await runMove(
    db,
    idempotencyKey,
    creditBackStatement({ ...input, type: "generation_refund", idempotencyKey, description: input.description ?? "Generation refunded" }),
  );
  // A reserve always created the balances row, so an empty answer means the user is gone.
  return move ?? { applied: false, transaction: null, balance: 0 };
}

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

export type GrantInput = {
  userId: string;
  credits: number;
  type: "topup" | "grant";
  idempotencyKey: string;
  description?: string;
  paymentId?: string | null;
  actorUserId?: string | null;
};

/** Adds credits (a paid top-up or an admin grant), once per idempotency key. */
export async function grantCredits(db: Executor, input: GrantInput): Promise<Move> {
  assertAmount(input.credits, "grant");
  const move = await runMove(
    db,
    input.idempotencyKey,
    sql`
      with credited as (
        insert into balances as b (user_id, credits) values (${input.userId}, ${input.credits})
        on conflict (user_id) do update set credits = b.credits + excluded.credits, updated_at = now()
        returning credits
      )
      insert into credit_transactions (id, user_id, type, amount, balance_after, description, idempotency_key, payment_id, actor_user_id)
      select ${newId()}, ${input.userId}, ${input.type}, ${input.credits}, credited.credits, ${input.description ?? null},
             ${input.idempotencyKey}, ${input.paymentId ?? null}, ${input.actorUserId ?? null}
        from credited
      ${RETURNING}`,
  );
  if (!move) throw new Error("grant wrote no ledger row");
  return move;
}

export type ClawbackInput = {
  userId: string;
  credits: number;
  idempotencyKey: string;
  description?: string;
  actorUserId?: string | null;
};

/**
 * Takes credits back (admin). It never drives a balance negative: it takes at most what the balance
 * holds, and the row's amount records what was actually taken, so the admin sees the real figure.
 */
export async function clawbackCredits(db: Executor, input: ClawbackInput): Promise<Move> {
  assertAmount(input.credits, "clawback");
  // The row must exist before the statement below: a CTE cannot see rows its siblings insert.
  await db.execute(sql`insert into balances (user_id, credits) values (${input.userId}, 0) on conflict (user_id) do nothing`);
  const move = await runMove(
    db,
    input.idempotencyKey,
    sql`
      with locked as (
        select user_id, least(credits, ${input.credits}) as take from balances where user_id = ${input.userId} for update
      ), debited as (
        update balances b set credits = b.credits - locked.take, updated_at = now()
          from locked where b.user_id = locked.user_id
        returning b.credits, locked.take
      )
      insert into credit_transactions (id, user_id, type, amount, balance_after, description, idempotency_key, actor_user_id)
      select ${newId()}, ${input.userId}, 'clawback', -debited.take, debited.credits, ${input.description ?? null},
             ${input.idempotencyKey}, ${input.actorUserId ?? null}
        from debited
      ${RETURNING}`,
  );
  if (!move) throw new Error("clawback wrote no ledger row");
  if (move.applied) publishDebit(db, input.userId, move.balance);
  return move;
}
