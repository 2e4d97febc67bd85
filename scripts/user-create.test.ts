import { execFile } from "node:child_process";
import { readFile } from "node:fs/promises";
import { promisify } from "node:util";
import { PGlite } from "@electric-sql/pglite";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, inject, test } from "vitest";
import { pgliteDb, type Db } from "@/db/client";
import { migrateDatabase } from "@/db/migrate";
import { exposePglite, type PgliteExposure } from "@/db/pglite-exposure";
import { apiKeys, balances, creditTransactions, users } from "@/db/schema";
import { hashApiKey } from "@/lib/auth/api-key";

const run = promisify(execFile);

/**
 * The app running on the embedded default: a PGlite served on a loopback port, its lock file in
 * DATA_DIR (this test file's own). The CLI must find it there and write through it.
 */
let client: PGlite;
let db: Db;
let exposure: PgliteExposure;

beforeAll(async () => {
  // The run's migrated snapshot when there is one (PGlite runs); otherwise migrate a fresh one.
  const snapshot = inject("pgliteSnapshot");
  client = snapshot ? await PGlite.create({ loadDataDir: new Blob([await readFile(snapshot)]) }) : await PGlite.create();
  db = pgliteDb(client);
  if (!snapshot) await migrateDatabase({ kind: "pglite", db });
  exposure = await exposePglite(client, 0);
});

afterAll(async () => {
  await exposure.stop();
  await client.close();
});

async function userCreate(...args: string[]) {
  const env: NodeJS.ProcessEnv = { ...process.env, DATABASE_URL: "", NODE_ENV: "production" as const };
  return run("node_modules/.bin/tsx", ["scripts/user-create.ts", ...args], { env });
}

describe("npm run user:create", () => {
  test("creates a user and a live key through the running app's database, printing one JSON line", async () => {
    const { stdout, stderr } = await userCreate("--email", "  Ops@Example.TEST ", "--admin");
    expect(stderr).toBe("");
    const lines = stdout.trim().split("\n");
    expect(lines).toHaveLength(1);
    const out = JSON.parse(lines[0]!);
    expect(Object.keys(out)).toEqual(["userId", "email", "role", "apiKey"]);
    expect(out).toMatchObject({ email: "ops@example.test", role: "admin", apiKey: expect.stringMatching(/^gw_live_[0-9A-Za-z]{40}$/) });
    const [user] = await db.select().from(users).where(eq(users.id, out.userId));
    expect(user).toMatchObject({ email: "ops@example.test", role: "admin" });
    const [key] = await db
      .select()
      .from(apiKeys)
      .where(eq(apiKeys.hash, hashApiKey(out.apiKey)));
    expect(key).toMatchObject({ userId: out.userId, name: "cli", mode: "live" });
  }, 60_000);

  test("finds an existing user (a second run adds a key, not a user); --credits grants once per run through the ledger", async () => {
    const first = JSON.parse((await userCreate("--email", "dev@example.test")).stdout);
    const second = await userCreate("--email", "DEV@example.test", "--credits", "500");
    expect(second.stderr).toBe("");
    const out = JSON.parse(second.stdout);
    expect(Object.keys(out)).toEqual(["userId", "email", "role", "apiKey"]);
    expect(out.userId).toBe(first.userId);
    expect(out.role).toBe("user");
    expect(out.apiKey).not.toBe(first.apiKey);
    expect(await db.select().from(apiKeys).where(eq(apiKeys.userId, out.userId))).toHaveLength(2);
    const rows = await db.select().from(creditTransactions).where(eq(creditTransactions.userId, out.userId));
    expect(rows).toEqual([
      expect.objectContaining({
        type: "grant",
        amount: 5_000_000,
        balanceAfter: 5_000_000,
        idempotencyKey: expect.stringMatching(new RegExp(`^cli-grant:${out.userId}:[0-9a-f-]{36}$`)),
      }),
    ]);
    await userCreate("--email", "dev@example.test", "--credits", "0.0125");
    const [balance] = await db.select().from(balances).where(eq(balances.userId, out.userId));
    expect(balance?.credits).toBe(5_000_125);
    expect(await db.select().from(creditTransactions).where(eq(creditTransactions.userId, out.userId))).toHaveLength(2);
  }, 60_000);

  test.each(["0", "-5", "abc", "1.00001"])(
    "--credits=%s exits 2 and writes nothing",
    async (credits) => {
      const failure = await userCreate("--email", "bad-credits@example.test", `--credits=${credits}`).catch((err) => err);
      expect(failure.code).toBe(2);
      expect(failure.stderr).toContain("--credits");
      expect(await db.select().from(users).where(eq(users.email, "bad-credits@example.test"))).toEqual([]);
    },
    60_000,
  );

  test("a missing or bad e-mail exits 2 with a message", async () => {
    const failure = await userCreate("--email", "not-an-address").catch((err) => err);
    expect(failure.code).toBe(2);
    expect(failure.stderr).toContain("--email");
  }, 60_000);
});
