import { sql } from "drizzle-orm";
import { rawRows, type Executor } from "@/db/client";
import { CREDITS_PER_RUB } from "@/lib/pricing/credits";
import { env } from "@/lib/core/env";

/**
 * The user's low-balance threshold in credits: the auto top-up threshold when auto top-up is on,
 * else LOW_BALANCE_EMAIL_THRESHOLD_RUB. As SQL, so the crossing is decided in one statement.
 */
const thresholdCredits = (userId: string) => sql`(
  coalesce((select case when s.enabled then s.threshold_rub end from auto_topup_settings s where s.user_id = ${userId}),
           ${env().LOW_BALANCE_EMAIL_THRESHOLD_RUB}) * ${CREDITS_PER_RUB}::bigint)`;

export type Crossing = {
  notifiedAt: Date;
  email: string | null;
  optOut: boolean;
  autoTopup: boolean;
  thresholdRub: number;
  balanceCredits: number;
};

/**
 * Marks the user's balance as "below the threshold" if it is and was not already: one statement,
 * so of twenty debits crossing at once exactly one gets the row back (the others see the mark
 * set). The winner sends the auto top-up event and the e-mail; balances.low_balance_notified_at
 * is cleared again when the balance recovers (clearLowBalanceIfRecovered).
 */
export async function markLowBalanceCrossing(db: Executor, userId: string): Promise<Crossing | null> {
  const rows = await rawRows<{
    notified_at: string | Date;
    email: string | null;
    opt_out: boolean;
    auto_topup: boolean | null;
    threshold_rub: number | null;
    credits: string | number;
  }>(
    db,
    sql`update balances b set low_balance_notified_at = now()
        from users u left join auto_topup_settings s on s.user_id = u.id
        where b.user_id = ${userId} and u.id = b.user_id and b.low_balance_notified_at is null
          and b.credits < ${thresholdCredits(userId)}
        returning b.low_balance_notified_at as notified_at, u.email, u.low_balance_email_opt_out as opt_out,
                  s.enabled as auto_topup, s.threshold_rub, b.credits`,
  );
  const row = rows[0];
  if (!row) return null;
  const autoTopup = row.auto_topup === true;
  return {
    notifiedAt: new Date(row.notified_at),
    email: row.email,
    optOut: row.opt_out,
    autoTopup,
    thresholdRub: autoTopup ? row.threshold_rub! : env().LOW_BALANCE_EMAIL_THRESHOLD_RUB,
    balanceCredits: Number(row.credits),
  };
}

/** After a top-up (or by the reconcile sweep): a balance back at or above the threshold may cross again. */
export async function clearLowBalanceIfRecovered(db: Executor, userId: string): Promise<void> {
  await db.execute(
    sql`update balances set low_balance_notified_at = null
        where user_id = ${userId} and low_balance_notified_at is not null and credits >= ${thresholdCredits(userId)}`,
  );
}

/** The sweep's version for every user at once. */
export async function clearRecoveredLowBalances(db: Executor): Promise<void> {
  await db.execute(
    sql`update balances b set low_balance_notified_at = null
        where b.low_balance_notified_at is not null
          and b.credits >= coalesce((select case when s.enabled then s.threshold_rub end from auto_topup_settings s where s.user_id = b.user_id),
                                    ${env().LOW_BALANCE_EMAIL_THRESHOLD_RUB}) * ${CREDITS_PER_RUB}::bigint`,
  );
}
