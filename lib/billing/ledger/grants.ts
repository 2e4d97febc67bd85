import { sql } from "drizzle-orm";
import type { Executor } from "@/db/client";
import { publishDebit } from "./debit-hook";
import { assertAmount, newId, RETURNING, runMove, type Move } from "./moves";

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
