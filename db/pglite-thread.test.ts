import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { eq, sql } from "drizzle-orm";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, inject, test } from "vitest";
import { pgliteThreadHandle, rawRows, type DbHandle } from "@/db/client";
import { migrateDatabase } from "@/db/migrate";
import { openPgliteThread, type PgliteThread } from "@/db/pglite-thread";
import { balances, creditTransactions, users } from "@/db/schema";
import { getBalanceCredits, grantCredits } from "@/lib/billing/ledger/ledger";
import { isUniqueViolation } from "@/lib/billing/ledger/moves";

/**
 * PGlite on its own thread, as `npm start` runs the embedded default: the same answers, errors,
 * transactions and notices as PGlite in-thread, while the calling thread stays free.
 * (`TEST_PGLITE_THREAD=1 npm test` runs every test file on it.)
 */
let thread: PgliteThread;
let handle: DbHandle;

beforeAll(async () => {
  const snapshot = inject("pgliteSnapshot");
  thread = await openPgliteThread(snapshot ? { loadDataDir: snapshot } : {});
  handle = pgliteThreadHandle(thread);
  if (!snapshot) await migrateDatabase({ kind: "pglite", db: handle.db });
});
afterAll(() => handle.close());

const newUser = async (email = `thread-${crypto.randomUUID()}@example.test`) =>
  (await handle.db.insert(users).values({ email, name: "Thread" }).returning())[0]!;

describe("PGlite on a worker thread", () => {
  test("the query builder's rows come back mapped as in-thread (dates, JSON, numbers)", async () => {
    const user = await newUser();
    expect(user.createdAt).toBeInstanceOf(Date);
    const [read] = await handle.db.select().from(users).where(eq(users.id, user.id));
    expect(read).toEqual(user);
    const rows = await rawRows<{ n: number; j: { a: number[] }; t: string }>(
      handle.db,
      sql`select 2::int as n, ${JSON.stringify({ a: [1, 2] })}::jsonb as j, 'x' as t`,
    );
    expect(rows).toEqual([{ n: 2, j: { a: [1, 2] }, t: "x" }]);
  });

  test("an error keeps PostgreSQL's fields (a unique violation is recognised as one)", async () => {
    const user = await newUser();
    const error = await newUser(user.email!).catch((e: unknown) => e);
    expect(isUniqueViolation(error)).toBe(true);
    const syntax = await rawRows(handle.db, sql`selec 1`).catch((e: unknown) => e as { cause?: { code?: string } });
    expect((syntax as { cause?: { code?: string } }).cause?.code).toBe("42601");
  });

  test("a transaction commits, or rolls back as a whole when its callback throws; a savepoint rolls back alone", async () => {
    const kept = await handle.db.transaction(
      async (tx) =>
        (
          await tx
            .insert(users)
            .values({ email: `kept-${crypto.randomUUID()}@x.test` })
            .returning()
        )[0]!,
    );
    const gone = `gone-${crypto.randomUUID()}@x.test`;
    await expect(
      handle.db.transaction(async (tx) => {
        await tx.insert(users).values({ email: gone });
        throw new Error("changed my mind");
      }),
    ).rejects.toThrow("changed my mind");
    const inner = `inner-${crypto.randomUUID()}@x.test`;
    const outer = `outer-${crypto.randomUUID()}@x.test`;
    await handle.db.transaction(async (tx) => {
      await tx.insert(users).values({ email: outer });
      await tx
        .transaction(async (sp) => {
          await sp.insert(users).values({ email: inner });
          sp.rollback();
        })
        .catch(() => {});
    });
    const emails = (await handle.db.select({ email: users.email }).from(users)).map((u) => u.email);
    expect(emails).toContain(kept.email);
    expect(emails).toContain(outer);
    expect(emails).not.toContain(gone);
    expect(emails).not.toContain(inner);
  });

  test("many concurrent ledger moves and plain reads: every credit accounted for", async () => {
    const user = await newUser();
    const moves = Array.from({ length: 60 }, (_, i) =>
      grantCredits(handle.db, { userId: user.id, credits: 100 + i, type: "grant", idempotencyKey: `thread-grant:${user.id}:${i % 50}` }),
    );
    const reads = Array.from({ length: 60 }, () => getBalanceCredits(handle.db, user.id));
    await Promise.all([...moves, ...reads]);
    const expected = Array.from({ length: 50 }, (_, i) => 100 + i).reduce((a, b) => a + b, 0);
    const [balance] = await handle.db.select({ credits: balances.credits }).from(balances).where(eq(balances.userId, user.id));
    const rows = await handle.db
      .select({ amount: creditTransactions.amount })
      .from(creditTransactions)
      .where(eq(creditTransactions.userId, user.id));
    expect(rows).toHaveLength(50);
    expect(rows.reduce((s, r) => s + Number(r.amount), 0)).toBe(expected);
    expect(balance!.credits).toBe(expected);
  });

  test("LISTEN on the thread: a NOTIFY reaches the listener on this thread once its transaction commits", async () => {
    const heard: string[] = [];
    await thread.client.listen("thread_test", (payload) => heard.push(payload));
    await handle.db.transaction(async (tx) => {
      await tx.execute(sql`select pg_notify('thread_test', 'in a transaction')`);
      expect(heard).toEqual([]);
    });
    await handle.db.execute(sql`select pg_notify('thread_test', 'alone')`);
    await expect.poll(() => heard).toEqual(["in a transaction", "alone"]);
  });

  test("while PGlite works, this thread keeps running", async () => {
    let ticks = 0;
    const timer = setInterval(() => ticks++, 1);
    try {
      // Long enough that in-thread PGlite would hold this thread for the whole of it.
      await rawRows(handle.db, sql`select count(*) from generate_series(1, 3000000)`);
    } finally {
      clearInterval(timer);
    }
    expect(ticks).toBeGreaterThan(0);
  });
});

describe("the loopback port beside the server's own statements", () => {
  test("another process's statements and transactions never interleave with the server's", async () => {
    const port = await thread.expose(0);
    const other = postgres(`postgres://postgres@127.0.0.1:${port}/postgres`, { max: 2, onnotice: () => {} });
    try {
      const mine = Array.from({ length: 40 }, (_, i) => newUser(`mine-${i}-${crypto.randomUUID()}@x.test`));
      // Parameterised statements of other shapes (Parse, Bind, Execute, Sync each a message of their own),
      // and transactions that roll back: a statement of the server's inside them would roll back too.
      const theirs = Array.from({ length: 40 }, async (_, i) => {
        const [row] = await other`select ${i}::int + ${1}::int + ${2}::int as n`;
        expect(row!.n).toBe(i + 3);
        await other
          .begin(async (tx) => {
            await tx`insert into users (id, email) values (${`theirs-${i}`}, ${`theirs-${i}@x.test`})`;
            throw new Error("roll back");
          })
          .catch(() => {});
      });
      const created = await Promise.all([...mine, ...theirs]);
      const emails = new Set((await handle.db.select({ email: users.email }).from(users)).map((u) => u.email));
      for (const user of created.slice(0, 40)) expect(emails.has((user as { email: string }).email)).toBe(true);
      expect([...emails].filter((e) => e?.startsWith("theirs-"))).toEqual([]);
    } finally {
      await other.end();
    }
  });
});

describe("the embedded default's data directory on a thread", () => {
  test("served on a loopback port to other processes, and reopened with what it committed", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "gw-pglite-thread-"));
    try {
      // From the run's migrated snapshot when there is one (no initdb, no migrations: faster).
      const snapshot = inject("pgliteSnapshot");
      const first = await openPgliteThread({ dataDir: dir, ...(snapshot ? { loadDataDir: snapshot } : {}) });
      if (!snapshot) await migrateDatabase({ kind: "pglite", db: pgliteThreadHandle(first).db });
      const port = await first.expose(0);
      const client = postgres(`postgres://postgres@127.0.0.1:${port}/postgres`, { max: 1, onnotice: () => {} });
      await client`insert into users (id, email) values ('u-thread', 'from-another-process@x.test')`;
      await client.end();
      await first.close();
      const again = pgliteThreadHandle(await openPgliteThread({ dataDir: dir }));
      const rows = await again.db.select({ email: users.email }).from(users);
      expect(rows.map((r) => r.email)).toContain("from-another-process@x.test");
      await again.close();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
