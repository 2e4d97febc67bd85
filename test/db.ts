import { readFile } from "node:fs/promises";
import { PGlite } from "@electric-sql/pglite";
import postgres from "postgres";
import { pgliteDb, pgliteThreadHandle, postgresHandle, type DbHandle } from "@/db/client";
import { openPgliteThread } from "@/db/pglite-thread";

/**
 * Test databases. On PostgreSQL (TEST_DATABASE_URL) each test file gets a database created from a
 * template that global setup migrated and seeded once; on PGlite each file loads a snapshot of a
 * migrated, seeded database (in-thread, or on a worker thread with TEST_PGLITE_THREAD=1). Either way the same migrations ran, and no file sees another's rows.
 */
// Names carry the pid of the vitest main process, so concurrent runs never touch each other's
// databases, and databases left by a killed run can be recognised and dropped.
export const DB_NAME_PREFIX = "gw_test_";
export const templateDb = (runId: string) => `${DB_NAME_PREFIX}${runId}_template`;
export const fileDbPrefix = (runId: string) => `${DB_NAME_PREFIX}${runId}_f_`;

export function testDatabaseUrl(): string | undefined {
  return process.env.TEST_DATABASE_URL || undefined;
}

export function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

export async function openFileDatabase(runId: string, snapshotPath: string | undefined): Promise<DbHandle> {
  const url = testDatabaseUrl();
  if (url) {
    const name = `${fileDbPrefix(runId)}${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
    const admin = postgres(url, { max: 1, onnotice: () => {} });
    try {
      await admin.unsafe(`create database "${name}" template "${templateDb(runId)}"`);
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
  // TEST_PGLITE_THREAD=1: every file on PGlite in a worker thread, as `npm start` runs it (db/pglite-thread.ts).
  if (process.env.TEST_PGLITE_THREAD === "1") return pgliteThreadHandle(await openPgliteThread({ loadDataDir: snapshotPath }));
  const client = await PGlite.create({ loadDataDir: new Blob([await readFile(snapshotPath)]) });
  return { db: pgliteDb(client), kind: "pglite", close: () => client.close() };
}
