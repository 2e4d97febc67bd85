/**
 * Applies the checked-in migrations to DATABASE_URL, or to the embedded PGlite under DATA_DIR.
 * The app migrates itself at start; this is for deploy pipelines and for inspecting a fresh
 * database. With the app running on the embedded default there is nothing to do (it migrated).
 */
import { PGlite } from "@electric-sql/pglite";
import path from "node:path";
import { mkdirSync } from "node:fs";
import { pgliteDb } from "@/db/client";
import { migrateDatabase } from "@/db/migrate";
import { readPgliteLock } from "@/db/pglite-lock";

async function main() {
  const url = process.env.DATABASE_URL;
  if (url) {
    await migrateDatabase({ kind: "postgres", url });
    console.log("migrated", url.replace(/\/\/[^@]*@/, "//***@"));
    return;
  }
  const lock = readPgliteLock();
  if (lock) {
    console.log(`the app (pid ${lock.pid}) holds the embedded database and migrated it at start`);
    return;
  }
  const dir = path.resolve(process.env.DATA_DIR || "./data", "pglite");
  mkdirSync(dir, { recursive: true });
  const client = await PGlite.create(dir);
  await migrateDatabase({ kind: "pglite", db: pgliteDb(client) });
  await client.close();
  console.log("migrated", dir);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
