import path from "node:path";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import { drizzle } from "drizzle-orm/postgres-js";
import { migrate as migratePostgres } from "drizzle-orm/postgres-js/migrator";
import postgres from "postgres";
import type { PgliteDatabase } from "drizzle-orm/pglite";

export const migrationsFolder = path.join(process.cwd(), "drizzle");

// An arbitrary constant: every instance takes the same advisory lock before migrating.
const MIGRATION_LOCK = 727_101;

/**
 * Applies the checked-in drizzle-kit migrations. On PostgreSQL several app instances may start
 * at once, so the run is serialised by an advisory lock held on one dedicated connection.
 */
export async function migrateDatabase(target: { kind: "postgres"; url: string } | { kind: "pglite"; db: unknown }): Promise<void> {
  if (target.kind === "pglite") {
    await migratePglite(target.db as PgliteDatabase, { migrationsFolder });
    return;
  }
  const client = postgres(target.url, { max: 1, onnotice: () => {} });
  try {
    await client`select pg_advisory_lock(${MIGRATION_LOCK})`;
    await migratePostgres(drizzle(client), { migrationsFolder });
    await client`select pg_advisory_unlock(${MIGRATION_LOCK})`;
  } finally {
    await client.end({ timeout: 5 });
  }
}
