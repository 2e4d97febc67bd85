import { readFileSync } from "node:fs";
import path from "node:path";

/**
 * While the app holds the embedded PGlite, no other process may open its directory.
 * `DATA_DIR/pglite.lock` records the owner's pid and loopback port so CLI scripts, drizzle-kit and
 * psql connect there instead. Kept free of app imports so drizzle.config.ts can load it.
 */
export type PgliteLock = { pid: number; port: number };

export const pgliteLockPath = (dataDir = process.env.DATA_DIR || "./data") => path.resolve(dataDir, "pglite.lock");

/** The running app's lock, or null when no live process holds the embedded database. */
export function readPgliteLock(dataDir?: string): PgliteLock | null {
  try {
    const lock = JSON.parse(readFileSync(pgliteLockPath(dataDir), "utf8")) as PgliteLock;
    process.kill(lock.pid, 0);
    return lock;
  } catch {
    return null;
  }
}

/**
 * The Postgres URL a separate process should use: DATABASE_URL, or the running app's embedded
 * PGlite port. Null when neither exists (the caller may then open the PGlite directory itself).
 */
export function cliDatabaseUrl(): string | null {
  if (process.env.DATABASE_URL) return process.env.DATABASE_URL;
  const lock = readPgliteLock();
  return lock ? `postgres://postgres@127.0.0.1:${lock.port}/postgres` : null;
}
