import { and, count, eq, gt, inArray, isNull, or, sql } from "drizzle-orm";
import type { Executor } from "@/db/client";
import { apiKeys, creditTransactions, models, users, type TransactionType } from "@/db/schema";

/** Money put into balances: top-ups and grants, net of admin clawbacks. */
const issuingTypes: TransactionType[] = ["topup", "grant", "clawback"];
/** Money taken by generations, net of settle refunds and failure refunds. */
const generationTypes: TransactionType[] = ["generation_reserve", "generation_settle_refund", "generation_settle_charge", "generation_refund"];

/**
 * GET /admin/stats. Each figure is one aggregate in PostgreSQL; the credit figures come from the
 * ledger itself rather than the cached balances, so they are what the ledger says happened:
 * issued − used equals the sum of all balances.
 */
export async function adminStats(db: Executor, now = new Date()) {
  const [[u], [k], [m], [c]] = await Promise.all([
    db.select({ n: count() }).from(users),
    db
      .select({ n: count() })
      .from(apiKeys)
      .where(and(eq(apiKeys.enabled, true), or(isNull(apiKeys.expiresAt), gt(apiKeys.expiresAt, now)))),
    db.select({ n: count() }).from(models),
    db
      .select({
        issued: sql<number>`coalesce(sum(${creditTransactions.amount}) filter (where ${inArray(creditTransactions.type, issuingTypes)}), 0)`.mapWith(Number),
        used: sql<number>`coalesce(-sum(${creditTransactions.amount}) filter (where ${inArray(creditTransactions.type, generationTypes)}), 0)`.mapWith(Number),
      })
      .from(creditTransactions),
  ]);
  return { users: u?.n ?? 0, activeApiKeys: k?.n ?? 0, models: m?.n ?? 0, credits: { issued: c?.issued ?? 0, used: c?.used ?? 0 } };
}
