import { readFile } from "node:fs/promises";
import { PGlite } from "@electric-sql/pglite";
import postgres from "postgres";
import { pgliteDb, postgresHandle, type DbHandle } from "@/db/client";

/**
 * Test databases. On PostgreSQL (TEST_DATABASE_URL) each test file gets a database created from a
 * template that global setup migrated and seeded once; on PGlite each file loads a snapshot of a
 * migrated, seeded database. Either way the same migrations ran, and no file sees another's rows.
 */
export const TEMPLATE_DB = "gw_test_template";
export const FILE_DB_PREFIX = "gw_test_f_";

export function testDatabaseUrl(): string | undefined {
  return process.env.TEST_DATABASE_URL || undefined;
}

export function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

export async function openFileDatabase(snapshotPath: string | undefined): Promise<DbHandle> {
  const url = testDatabaseUrl();
  if (url) {
    const name = `${FILE_DB_PREFIX}${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
    const admin = postgres(url, { max: 1, onnotice: () => {} });
    try {
      await admin.unsafe(`create database "${name}" template "${TEMPLATE_DB}"`);
    } finally {
      await admin.end();
    }
    const handle = postgresHandle(withDatabase(url, name), 10);
    return {
      ...handle,
      close: async () => {
        await handle.close();
        const cleanup = postgres(url, { max: 1, onnotice: () => {} });
        await cleanup.unsafe(`drop database if exists "${name}" with (force)`).catch(() => {});
        await cleanup.end();
      },
    };
  }
  if (!snapshotPath) throw new Error("global setup did not provide a PGlite snapshot");
  const client = await PGlite.create({ loadDataDir: new Blob([await readFile(snapshotPath)]) });
  return { db: pgliteDb(client), kind: "pglite", close: () => client.close() };
}
