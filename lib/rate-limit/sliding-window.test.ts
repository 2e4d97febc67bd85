import { eq } from "drizzle-orm";
import { describe, expect, test } from "vitest";
import { getDb } from "@/db/client";
import { apiKeys, rateLimitWindows } from "@/db/schema";
import { createApiKey, createUser } from "@/test/factories";
import { hitKeyWindow, hitWindow, pruneRateLimitWindows } from "./sliding-window";

const unique = () => `t:${crypto.randomUUID()}`;

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
    const [row] = await db.select().from(rateLimitWindows).where(eq(rateLimitWindows.key, key));
    expect(row!.hits).toHaveLength(7);
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
    expect(row!.hits).toEqual([t0 + 400, t0 + 1000]);
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
