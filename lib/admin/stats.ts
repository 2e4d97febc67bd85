import { and, count, eq, gt, isNull, or, sql } from "drizzle-orm";
import type { Executor } from "@/db/client";
import { apiKeys, balances, models, users } from "@/db/schema";
import { providerStats } from "./provider-stats";

/** GET /admin/stats: the totals below and each provider's jobs and money (./provider-stats.ts). */
export async function adminStats(db: Executor, now = new Date()) {
  const [totals, providers] = await Promise.all([adminTotals(db, now), providerStats(db)]);
  return { ...totals, providers };
}

/**
 * The totals of GET /admin/stats (the admin overview shows these alone). Each figure is one
 * aggregate in PostgreSQL. The credit figures read the cached balances (one row per user) rather than every ledger row: the ledger writes `credits` and
 * `spent_credits` in the same statement as each row, so `used` = Σ spent (generation debits net of
 * refunds) and `issued` = Σ balance + Σ spent (top-ups and grants net of clawbacks), which the
 * test checks against the ledger itself.
 */
export async function adminTotals(db: Executor, now = new Date()) {
  const [[u], [k], [m], [c]] = await Promise.all([
    db.select({ n: count() }).from(users),
    db
      .select({ n: count() })
      .from(apiKeys)
      .where(and(eq(apiKeys.enabled, true), or(isNull(apiKeys.expiresAt), gt(apiKeys.expiresAt, now)))),
    db.select({ n: count() }).from(models),
    db
      .select({
        balance: sql<number>`coalesce(sum(${balances.credits}), 0)`.mapWith(Number),
        spent: sql<number>`coalesce(sum(${balances.spentCredits}), 0)`.mapWith(Number),
      })
      .from(balances),
  ]);
  return {
    users: u?.n ?? 0,
    activeApiKeys: k?.n ?? 0,
    models: m?.n ?? 0,
    credits: { issued: (c?.balance ?? 0) + (c?.spent ?? 0), used: c?.spent ?? 0 },
  };
}
