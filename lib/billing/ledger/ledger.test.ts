import { eq, sql } from "drizzle-orm";
import { httpStatusOf } from "@/lib/http/errors";
import { describe, expect, test } from "vitest";
import { getDb, rawRows } from "@/db/client";
import { apiKeyMonthlySpend, apiKeys, balances, creditTransactions } from "@/db/schema";
import { DomainError } from "@/lib/core/errors";
import { createApiKey, createUser } from "@/test/factories";
import { clawbackCredits, getBalanceCredits, grantCredits, refundGeneration, reserveCredits, settleGeneration } from "./ledger";

const RUB = 10_000;

async function funded(rub: number) {
  const user = await createUser();
  await grantCredits(await getDb(), { userId: user.id, credits: rub * RUB, type: "grant", idempotencyKey: `seed:${user.id}` });
  return user;
}

/** The ledger explains the balance: the sum of a user's rows equals it, and no row saw a negative balance. */
async function expectLedgerExplainsBalance(userId: string) {
  const db = await getDb();
  const [sum] = await rawRows<{ total: string | number; lowest: string | number }>(
    db,
    sql`select coalesce(sum(amount), 0) as total, coalesce(min(balance_after), 0) as lowest
          from credit_transactions where user_id = ${userId}`,
  );
  const balance = await getBalanceCredits(db, userId);
  expect(Number(sum!.total)).toBe(balance);
  expect(Number(sum!.lowest)).toBeGreaterThanOrEqual(0);
  return balance;
}

async function caught(promise: Promise<unknown>): Promise<DomainError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(DomainError);
  return error as DomainError;
}

describe("reserve", () => {
  test("200 parallel reserves of 1 ₽ against 50 ₽ succeed exactly 50 times and end at exactly 0", async () => {
    const db = await getDb();
    const user = await funded(50);
    const results = await Promise.allSettled(
      Array.from({ length: 200 }, (_, i) =>
        reserveCredits(db, { userId: user.id, apiKeyId: null, generationId: `gen-${user.id}-${i}`, credits: RUB }),
      ),
    );
    const ok = results.filter((r) => r.status === "fulfilled");
    const refused = results.filter((r): r is PromiseRejectedResult => r.status === "rejected");
    expect(ok).toHaveLength(50);
    expect(refused).toHaveLength(150);
    for (const r of refused) expect((r.reason as DomainError).code).toBe("insufficient_balance");
    expect(await expectLedgerExplainsBalance(user.id)).toBe(0);
  });

  test("the same 200 with a key: the key's month and lifetime count exactly the 50 that went through", async () => {
    const db = await getDb();
    const user = await funded(50);
    const key = await createApiKey(user);
    const results = await Promise.allSettled(
      Array.from({ length: 200 }, (_, i) =>
        reserveCredits(db, { userId: user.id, apiKeyId: key.id, generationId: `kgen-${user.id}-${i}`, credits: RUB }),
      ),
    );
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(50);
    expect(await expectLedgerExplainsBalance(user.id)).toBe(0);
    const [row] = await db.select().from(apiKeys).where(eq(apiKeys.id, key.id));
    expect(row!.lifetimeCostCredits).toBe(50 * RUB);
    const [month] = await db.select().from(apiKeyMonthlySpend).where(eq(apiKeyMonthlySpend.apiKeyId, key.id));
    expect(month!.spentCredits).toBe(50 * RUB);
  });

  test("402 carries required, available (₽) and the top-up recovery", async () => {
    const db = await getDb();
    const user = await funded(1);
    const error = await caught(
      reserveCredits(db, { userId: user.id, apiKeyId: null, generationId: `short-${user.id}`, credits: 250 * RUB + 5 }),
    );
    expect(httpStatusOf(error)).toBe(402);
    expect(error.extra).toEqual({
      required: 250.0005,
      available: 1,
      recovery: { action: "topup", url: "/billing/topup", minAmountRub: 250 },
    });
    expect(await getBalanceCredits(db, user.id)).toBe(RUB);
  });

  test("a user who never had a balance is refused with available 0", async () => {
    const user = await createUser();
    const error = await caught(
      reserveCredits(await getDb(), { userId: user.id, apiKeyId: null, generationId: `none-${user.id}`, credits: 1 }),
    );
    expect(error.extra).toMatchObject({ required: 0.0001, available: 0 });
  });

  test("a retried reserve moves money once and answers with the first row", async () => {
    const db = await getDb();
    const user = await funded(10);
    const input = { userId: user.id, apiKeyId: null, generationId: `retry-${user.id}`, credits: 3 * RUB };
    const [a, b, c] = await Promise.all([reserveCredits(db, input), reserveCredits(db, input), reserveCredits(db, input)]);
    expect([a, b, c].filter((m) => m.applied)).toHaveLength(1);
    expect(new Set([a, b, c].map((m) => m.transaction!.id)).size).toBe(1);
    expect(await expectLedgerExplainsBalance(user.id)).toBe(7 * RUB);
  });
});

describe("key monthly cap", () => {
  async function cappedKey(limitRub: number) {
    const user = await funded(100);
    const key = await createApiKey(user);
    await (await getDb()).update(apiKeys).set({ monthlyLimitRub: limitRub }).where(eq(apiKeys.id, key.id));
    return { user, key };
  }

  test("parallel reserves cannot overrun the cap; the rest get 429 key_limit_exceeded", async () => {
    const db = await getDb();
    const { user, key } = await cappedKey(5);
    const results = await Promise.allSettled(
      Array.from({ length: 30 }, (_, i) =>
        reserveCredits(db, { userId: user.id, apiKeyId: key.id, generationId: `cap-${key.id}-${i}`, credits: RUB }),
      ),
    );
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(5);
    for (const r of results.filter((r): r is PromiseRejectedResult => r.status === "rejected")) {
      expect(r.reason).toMatchObject({ code: "key_limit_exceeded" });
    }
    expect(await expectLedgerExplainsBalance(user.id)).toBe(95 * RUB);
  });

  test("the cap is per UTC calendar month and a refund frees its share", async () => {
    const db = await getDb();
    const { user, key } = await cappedKey(2);
    const november = new Date("2026-11-30T23:59:00Z");
    const reserve = (id: string, now: Date) =>
      reserveCredits(db, { userId: user.id, apiKeyId: key.id, generationId: `${key.id}-${id}`, credits: RUB, now });
    await reserve("a", november);
    await reserve("b", november);
    expect((await caught(reserve("c", november))).code).toBe("key_limit_exceeded");
    await refundGeneration(db, { userId: user.id, apiKeyId: key.id, generationId: `${key.id}-b`, credits: RUB, reservedAt: november });
    await reserve("d", november);
    // December 1st, 00:00 UTC: a new month, the cap starts over.
    await reserve("e", new Date("2026-12-01T00:00:00Z"));
    await reserve("f", new Date("2026-12-01T00:00:01Z"));
    expect((await caught(reserve("g", new Date("2026-12-15T00:00:00Z")))).code).toBe("key_limit_exceeded");
  });

  test("inside a caller's transaction the cap holds too, and a refusal rolls the caller back", async () => {
    const db = await getDb();
    const { user, key } = await cappedKey(1);
    await db.transaction((tx) => reserveCredits(tx, { userId: user.id, apiKeyId: key.id, generationId: `${key.id}-tx1`, credits: RUB }));
    const refused = await caught(
      db.transaction(async (tx) => {
        await tx.update(apiKeys).set({ name: "renamed in the refused transaction" }).where(eq(apiKeys.id, key.id));
        await reserveCredits(tx, { userId: user.id, apiKeyId: key.id, generationId: `${key.id}-tx2`, credits: 1 });
      }),
    );
    expect(refused.code).toBe("key_limit_exceeded");
    const [row] = await db.select().from(apiKeys).where(eq(apiKeys.id, key.id));
    expect(row!.name).not.toBe("renamed in the refused transaction");
    expect(await expectLedgerExplainsBalance(user.id)).toBe(99 * RUB);
  });

  test("a replayed reserve is not refused by the cap it filled", async () => {
    const db = await getDb();
    const { user, key } = await cappedKey(1);
    const input = { userId: user.id, apiKeyId: key.id, generationId: `${key.id}-only`, credits: RUB };
    const first = await reserveCredits(db, input);
    const again = await reserveCredits(db, input);
    expect(first.applied).toBe(true);
    expect(again).toMatchObject({ applied: false, transaction: { id: first.transaction!.id } });
  });
});

describe("refund", () => {
  test("reserves refunded concurrently, each retried twice more, come back exactly once", async () => {
    const db = await getDb();
    const user = await funded(50);
    const ids = Array.from({ length: 50 }, (_, i) => `ref-${user.id}-${i}`);
    await Promise.all(ids.map((generationId) => reserveCredits(db, { userId: user.id, apiKeyId: null, generationId, credits: RUB })));
    expect(await getBalanceCredits(db, user.id)).toBe(0);
    const refunds = ids.flatMap((generationId) =>
      [1, 2, 3].map(() => refundGeneration(db, { userId: user.id, apiKeyId: null, generationId, credits: RUB })),
    );
    const moves = await Promise.all(refunds);
    expect(moves.filter((m) => m.applied)).toHaveLength(50);
    expect(await expectLedgerExplainsBalance(user.id)).toBe(50 * RUB);
    const [row] = await db.select().from(balances).where(eq(balances.userId, user.id));
    expect(row!.spentCredits).toBe(0);
  });
});

describe("settle", () => {
  async function reserved(rub: number, credits: number) {
    const db = await getDb();
    const user = await funded(rub);
    const generationId = `set-${user.id}`;
    await reserveCredits(db, { userId: user.id, apiKeyId: null, generationId, credits });
    return { db, user, generationId };
  }

  test("a difference of 0.01 ₽ or less is ignored", async () => {
    const { db, user, generationId } = await reserved(10, 5 * RUB);
    const result = await settleGeneration(db, {
      userId: user.id,
      apiKeyId: null,
      generationId,
      reservedCredits: 5 * RUB,
      actualCredits: 5 * RUB + 100,
    });
    expect(result).toEqual({ settledCredits: 5 * RUB, move: null });
    expect(await getBalanceCredits(db, user.id)).toBe(5 * RUB);
  });

  test("the excess comes back once", async () => {
    const { db, user, generationId } = await reserved(10, 5 * RUB);
    const input = { userId: user.id, apiKeyId: null, generationId, reservedCredits: 5 * RUB, actualCredits: 2 * RUB + 1 };
    const [a, b] = await Promise.all([settleGeneration(db, input), settleGeneration(db, input)]);
    expect(a.settledCredits).toBe(2 * RUB + 1);
    expect(b.settledCredits).toBe(2 * RUB + 1);
    expect([a.move!.applied, b.move!.applied].filter(Boolean)).toHaveLength(1);
    expect(a.move!.transaction).toMatchObject({ type: "generation_settle_refund", amount: 3 * RUB - 1 });
    expect(await expectLedgerExplainsBalance(user.id)).toBe(8 * RUB - 1);
  });

  test("a shortfall is charged, but never beyond the balance", async () => {
    const { db, user, generationId } = await reserved(6, 5 * RUB);
    const result = await settleGeneration(db, {
      userId: user.id,
      apiKeyId: null,
      generationId,
      reservedCredits: 5 * RUB,
      actualCredits: 9 * RUB,
    });
    expect(result.settledCredits).toBe(6 * RUB);
    expect(result.move!.transaction).toMatchObject({ type: "generation_settle_charge", amount: -RUB, balanceAfter: 0 });
    expect(await expectLedgerExplainsBalance(user.id)).toBe(0);
  });
});

describe("grant and clawback", () => {
  test("a grant is applied once per idempotency key", async () => {
    const db = await getDb();
    const user = await createUser();
    const input = { userId: user.id, credits: 500 * RUB, type: "topup" as const, idempotencyKey: `payment:${user.id}` };
    const moves = await Promise.all([1, 2, 3, 4, 5].map(() => grantCredits(db, input)));
    expect(moves.filter((m) => m.applied)).toHaveLength(1);
    expect(await expectLedgerExplainsBalance(user.id)).toBe(500 * RUB);
  });

  test("a clawback takes at most the balance and records what it took", async () => {
    const db = await getDb();
    const user = await funded(3);
    const move = await clawbackCredits(db, {
      userId: user.id,
      credits: 10 * RUB,
      idempotencyKey: `claw:${user.id}`,
      description: "chargeback",
    });
    expect(move.transaction).toMatchObject({ type: "clawback", amount: -3 * RUB, balanceAfter: 0, description: "chargeback" });
    expect(await expectLedgerExplainsBalance(user.id)).toBe(0);
    const empty = await createUser();
    const none = await clawbackCredits(db, { userId: empty.id, credits: RUB, idempotencyKey: `claw:${empty.id}` });
    expect(none.transaction).toMatchObject({ amount: 0, balanceAfter: 0 });
  });

  test("every row records the balance right after it", async () => {
    const db = await getDb();
    const user = await funded(10);
    await reserveCredits(db, { userId: user.id, apiKeyId: null, generationId: `seq-${user.id}`, credits: 4 * RUB });
    await clawbackCredits(db, { userId: user.id, credits: RUB, idempotencyKey: `seqc:${user.id}` });
    const rows = await db
      .select({ amount: creditTransactions.amount, balanceAfter: creditTransactions.balanceAfter })
      .from(creditTransactions)
      .where(eq(creditTransactions.userId, user.id))
      .orderBy(creditTransactions.createdAt);
    let running = 0;
    for (const row of rows) {
      running += row.amount;
      expect(row.balanceAfter).toBe(running);
    }
    expect(running).toBe(5 * RUB);
  });
});
