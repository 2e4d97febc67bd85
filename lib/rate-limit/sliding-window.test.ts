import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { getDb, postgresHandle, rawRows, type DbHandle, type Executor } from "@/db/client";
import { apiKeys, rateLimitWindows } from "@/db/schema";
import { testDatabaseUrl, withDatabase } from "@/test/db";
import { createApiKey, createUser } from "@/test/factories";
import { HOUR_MS } from "./rules";
import { hitKeyWindow, hitWindow, keyWindowKey, pruneRateLimitWindows, SLOTS } from "./sliding-window";

const unique = () => `t:${crypto.randomUUID()}`;

/**
 * On PostgreSQL, 8 handles of one connection each on this file's database, as 8 app instances
 * would be; PGlite is one connection, so there the test's own handle stands in for all of them.
 */
let instances: Executor[] = [];
let opened: DbHandle[] = [];
beforeAll(async () => {
  const url = testDatabaseUrl();
  if (!url) {
    instances = [await getDb()];
    return;
  }
  const [row] = await rawRows<{ name: string }>(await getDb(), sql`select current_database() as name`);
  opened = Array.from({ length: 8 }, () => postgresHandle(withDatabase(url, row!.name), 1));
  instances = opened.map((h) => h.db);
});
afterAll(async () => {
  await Promise.all(opened.map((h) => h.close()));
});

describe("sliding window", () => {
  test("N parallel hits against a limit of M let exactly M through", async () => {
    const db = await getDb();
    const key = unique();
    const now = Date.now();
    const results = await Promise.all(Array.from({ length: 40 }, () => hitWindow(db, { key, max: 7, windowMs: 60_000, now })));
    expect(results.filter((r) => r.allowed)).toHaveLength(7);
    const remaining = results
      .filter((r) => r.allowed)
      .map((r) => r.remaining)
      .sort((a, b) => a - b);
    expect(remaining).toEqual([0, 1, 2, 3, 4, 5, 6]);
    for (const denied of results.filter((r) => !r.allowed)) {
      expect(denied).toEqual({ allowed: false, limit: 7, remaining: 0, resetAtMs: now + 60_000, windowMs: 60_000 });
    }
    // All of them in one slot: the slot of `now`, holding 7 hits.
    const [row] = await db.select().from(rateLimitWindows).where(eq(rateLimitWindows.key, key));
    expect(row).toMatchObject({ times: [now], counts: [7] });
  });

  test("the window slides: a hit frees its slot exactly when it leaves the window", async () => {
    const db = await getDb();
    const key = unique();
    const t0 = 1_000_000_000_000;
    expect((await hitWindow(db, { key, max: 2, windowMs: 1000, now: t0 })).allowed).toBe(true);
    expect((await hitWindow(db, { key, max: 2, windowMs: 1000, now: t0 + 400 })).allowed).toBe(true);
    const full = await hitWindow(db, { key, max: 2, windowMs: 1000, now: t0 + 999 });
    expect(full).toMatchObject({ allowed: false, remaining: 0, resetAtMs: t0 + 1000 });
    // t0 has left the window; t0+400 is still in it, so exactly one slot opens.
    const next = await hitWindow(db, { key, max: 2, windowMs: 1000, now: t0 + 1000 });
    expect(next).toMatchObject({ allowed: true, remaining: 0, resetAtMs: t0 + 1400 });
    expect((await hitWindow(db, { key, max: 2, windowMs: 1000, now: t0 + 1001 })).allowed).toBe(false);
    const [row] = await db.select().from(rateLimitWindows).where(eq(rateLimitWindows.key, key));
    expect(row).toMatchObject({ times: [t0 + 400, t0 + 1000], counts: [1, 1] });
  });

  test("hits closer than a slot (a sixtieth of the window) leave it together with the newest: late by under a slot, never early", async () => {
    const db = await getDb();
    const key = unique();
    const t0 = 1_000_000_020_000; // a slot of a 60 s window is 1 s; t0 starts one
    const hit = (at: number) => hitWindow(db, { key, max: 3, windowMs: 60_000, now: at });
    for (const at of [t0, t0 + 500, t0 + 900]) expect((await hit(at)).allowed).toBe(true);
    const [row] = await db.select().from(rateLimitWindows).where(eq(rateLimitWindows.key, key));
    expect(row).toMatchObject({ times: [t0 + 900], counts: [3] });
    // t0 left the window at t0 + 60 s; its slot holds it until its newest hit, t0 + 900, leaves.
    expect(await hit(t0 + 60_000)).toMatchObject({ allowed: false, remaining: 0, resetAtMs: t0 + 60_900 });
    expect(await hit(t0 + 60_899)).toMatchObject({ allowed: false, resetAtMs: t0 + 60_900 });
    expect(await hit(t0 + 60_900)).toMatchObject({ allowed: true, remaining: 2, resetAtMs: t0 + 120_900 });
  });

  test("a key at 100,000 per hour costs one row of constant size: two hours of hits leave it no bigger than one", async () => {
    const db = await getDb();
    const key = await createApiKey(await createUser());
    const t0 = 1_000_000_000_000;
    const every = 6_000; // 600 hits an hour
    const sizes: number[] = [];
    let last: Awaited<ReturnType<typeof hitKeyWindow>> | undefined;
    for (let i = 0; i < 1_200; i++) {
      last = await hitKeyWindow(db, { apiKeyId: key.id, max: 100_000, windowMs: HOUR_MS, now: t0 + i * every });
      expect(last.allowed).toBe(true);
      if (i % 100 === 99) {
        const [row] = await rawRows<{ bytes: number; slots: number }>(
          db,
          sql`select pg_column_size(w.*)::int as bytes, cardinality(times) as slots from rate_limit_windows w where key = ${keyWindowKey(key.id)}`,
        );
        sizes.push(row!.bytes);
        expect(row!.slots).toBeLessThanOrEqual(SLOTS + 1);
      }
    }
    // The first hour fills the slots (one a minute); from then on the row keeps its size.
    expect(new Set(sizes.slice(6)).size).toBe(1);
    expect(sizes.at(-1)).toBeLessThan(1_200);
    // 600 hits inside the last hour, plus at most the oldest slot's 10 that are about to leave it.
    expect(last!.remaining).toBeLessThanOrEqual(100_000 - 600);
    expect(last!.remaining).toBeGreaterThanOrEqual(100_000 - 610);
    const [counted] = await db.select().from(apiKeys).where(eq(apiKeys.id, key.id));
    expect(counted!.requestCount).toBe(1_200);
  });

  test("N parallel requests at a limit of K over separate connections (app instances): exactly K admitted", async () => {
    const db = await getDb();
    const key = await createApiKey(await createUser());
    const now = Date.now();
    const results = await Promise.all(
      Array.from({ length: 64 }, (_, i) =>
        hitKeyWindow(instances[i % instances.length]!, { apiKeyId: key.id, max: 10, windowMs: HOUR_MS, now: now + (i % 7) }),
      ),
    );
    const admitted = results.filter((r) => r.allowed);
    expect(admitted).toHaveLength(10);
    expect(admitted.map((r) => r.remaining).sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    for (const refused of results.filter((r) => !r.allowed)) expect(refused).toMatchObject({ remaining: 0, limit: 10 });
    const [row] = await rawRows<{ hits: number }>(
      db,
      sql`select (select sum(c) from unnest(counts) as c)::int as hits from rate_limit_windows where key = ${keyWindowKey(key.id)}`,
    );
    expect(row!.hits).toBe(10);
    const [counted] = await db.select().from(apiKeys).where(eq(apiKeys.id, key.id));
    expect(counted!.requestCount).toBe(10);
  });

  test("a limit of 0 refuses everything", async () => {
    const db = await getDb();
    expect((await hitWindow(db, { key: unique(), max: 0, windowMs: 1000 })).allowed).toBe(false);
  });

  test("the key window counts allowed requests on the key in the same statement, and only those", async () => {
    const db = await getDb();
    const key = await createApiKey(await createUser());
    const now = Date.now();
    const results = await Promise.all(
      Array.from({ length: 25 }, () => hitKeyWindow(db, { apiKeyId: key.id, max: 10, windowMs: 60_000, now })),
    );
    expect(results.filter((r) => r.allowed)).toHaveLength(10);
    const [row] = await db.select().from(apiKeys).where(eq(apiKeys.id, key.id));
    expect(row!.requestCount).toBe(10);
    expect(row!.lastRequest!.getTime()).toBe(now);
  });

  test("pruning drops windows that went quiet and keeps live ones", async () => {
    const db = await getDb();
    const quiet = unique();
    const live = unique();
    const now = Date.now();
    await hitWindow(db, { key: quiet, max: 5, windowMs: 1000, now: now - 2 * 86_400_000 });
    await hitWindow(db, { key: live, max: 5, windowMs: 1000, now });
    expect(await pruneRateLimitWindows(db, 86_400_000, now)).toBeGreaterThanOrEqual(1);
    const keys = (await db.select({ key: rateLimitWindows.key }).from(rateLimitWindows)).map((r) => r.key);
    expect(keys).toContain(live);
    expect(keys).not.toContain(quiet);
  });
});
