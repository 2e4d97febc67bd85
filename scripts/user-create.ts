/**
 * `npm run -s user:create -- --email E [--admin] [--credits RUB]`
 *
 * Creates (or finds) a user, optionally makes them an admin, creates a `_live_` API key named
 * "cli" and prints one JSON line: {"userId","email","role","apiKey"}. Works while the app runs on
 * the embedded database (it connects to the loopback port in DATA_DIR/pglite.lock), against
 * DATABASE_URL, or on the PGlite directory itself when nothing is running.
 */
import { mkdirSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { PGlite } from "@electric-sql/pglite";
import { eq } from "drizzle-orm";
import { z } from "zod";
import { pgliteDb, postgresHandle, type DbHandle } from "@/db/client";
import { migrateDatabase } from "@/db/migrate";
import { cliDatabaseUrl } from "@/db/pglite-lock";
import { apiKeys, users } from "@/db/schema";
import { generateApiKey } from "@/lib/auth/api-key";
import { newKeyId } from "@/lib/keys/create-key";

function fail(message: string): never {
  process.stderr.write(`user:create: ${message}\n`);
  process.exit(2);
}

function options() {
  const { values } = parseArgs({
    options: { email: { type: "string" }, admin: { type: "boolean", default: false }, credits: { type: "string" } },
    strict: true,
  });
  const email = z.email().safeParse(values.email?.trim().toLowerCase());
  if (!email.success) fail("--email <address> is required and must be an e-mail address");
  const credits = values.credits === undefined ? undefined : Number(values.credits);
  if (credits !== undefined && !(Number.isFinite(credits) && credits > 0)) fail("--credits must be a positive number of rubles");
  return { email: email.data, admin: values.admin, credits };
}

async function open(): Promise<DbHandle> {
  const url = cliDatabaseUrl();
  if (url) {
    // A no-op when the app already migrated; needed for a PostgreSQL the app has never started on.
    if (process.env.DATABASE_URL) await migrateDatabase({ kind: "postgres", url });
    return postgresHandle(url, 1);
  }
  const dir = path.resolve(process.env.DATA_DIR || "./data", "pglite");
  mkdirSync(dir, { recursive: true });
  const client = await PGlite.create(dir);
  const db = pgliteDb(client);
  await migrateDatabase({ kind: "pglite", db });
  return { db, kind: "pglite", close: () => client.close() };
}

async function main() {
  const opts = options();
  const handle = await open();
  try {
    const { db } = handle;
    await db.insert(users).values({ email: opts.email }).onConflictDoNothing({ target: users.email });
    if (opts.admin) await db.update(users).set({ role: "admin" }).where(eq(users.email, opts.email));
    const [user] = await db.select({ id: users.id, email: users.email, role: users.role }).from(users).where(eq(users.email, opts.email));
    if (!user) fail("the user could not be created");
    const key = generateApiKey("live");
    await db.insert(apiKeys).values({ id: newKeyId(), userId: user.id, name: "cli", hash: key.hash, prefix: key.prefix, start: key.start, mode: "live" });
    if (opts.credits !== undefined) {
      // Balances are written only by the ledger (money issue), which this build does not have yet.
      process.stderr.write(
        `user:create: --credits ${opts.credits} not granted: this build has no credit ledger yet. ` +
          `Grant later with POST /admin/users/${user.id}/credits/grant.\n`,
      );
    }
    process.stdout.write(JSON.stringify({ userId: user.id, email: user.email, role: user.role, apiKey: key.key }) + "\n");
  } finally {
    await handle.close();
  }
}

main().then(
  () => process.exit(0),
  (err) => {
    process.stderr.write(`user:create: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  },
);
