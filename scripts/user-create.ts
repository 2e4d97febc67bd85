/**
 * `npm run -s user:create -- --email E [--admin] [--credits RUB]`
 *
 * Creates (or finds) a user, optionally makes them an admin, creates a `_live_` API key named
 * "cli" and prints one JSON line: {"userId","email","role","apiKey"}. `--credits RUB` grants that many
 * rubles once per run through the ledger (a `grant` row keyed `cli-grant:<userId>:<run uuid>`). Works while the app runs on
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
import { grantCredits } from "@/lib/billing/ledger/ledger";
import { newKeyId } from "@/lib/account/keys/create-key";
import { rubToCredits } from "@/lib/pricing/credits";

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
  return { email: email.data, admin: values.admin, credits: values.credits === undefined ? undefined : creditsOf(values.credits) };
}

/** Rubles as typed (up to 0.0001 ₽) → credits, exactly; anything else stops the run before it writes. */
function creditsOf(rub: string): number {
  let credits: number;
  try {
    credits = rubToCredits(rub);
  } catch {
    fail("--credits must be a positive number of rubles with at most 4 decimals");
  }
  if (credits <= 0) fail("--credits must be a positive number of rubles with at most 4 decimals");
  return credits;
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
    await db
      .insert(apiKeys)
      .values({ id: newKeyId(), userId: user.id, name: "cli", hash: key.hash, prefix: key.prefix, start: key.start, mode: "live" });
    if (opts.credits !== undefined) {
      // One key per run: a retried statement cannot grant twice, a second run is a second grant.
      await grantCredits(db, {
        userId: user.id,
        credits: opts.credits,
        type: "grant",
        idempotencyKey: `cli-grant:${user.id}:${crypto.randomUUID()}`,
        description: "Granted with user:create --credits",
      });
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
