import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import postgres from "postgres";
import type { TestProject } from "vitest/node";
import { pgliteDb, postgresHandle } from "@/db/client";
import { migrateDatabase } from "@/db/migrate";
import { seedDatabase } from "@/db/seed";
import { FILE_DB_PREFIX, TEMPLATE_DB, testDatabaseUrl, withDatabase } from "./db";

declare module "vitest" {
  export interface ProvidedContext {
    pgliteSnapshot: string | undefined;
    testRoot: string;
  }
}

/** Migrates and seeds one database for the whole run; each test file then copies it. */
export default async function setup(project: TestProject) {
  const root = await mkdtemp(path.join(tmpdir(), "gw-test-"));
  project.provide("testRoot", root);
  const url = testDatabaseUrl();
  if (url) {
    await resetPostgres(url);
    await migrateDatabase({ kind: "postgres", url: withDatabase(url, TEMPLATE_DB) });
    const handle = postgresHandle(withDatabase(url, TEMPLATE_DB), 1);
    await seedDatabase(handle.db);
    await handle.close();
    project.provide("pgliteSnapshot", undefined);
  } else {
    const client = await PGlite.create();
    const db = pgliteDb(client);
    await migrateDatabase({ kind: "pglite", db });
    await seedDatabase(db);
    const snapshot = path.join(root, "pglite-snapshot.tar");
    await writeFile(snapshot, Buffer.from(await (await client.dumpDataDir("none")).arrayBuffer()));
    await client.close();
    project.provide("pgliteSnapshot", snapshot);
  }
  return async () => {
    if (url) await dropFileDatabases(url);
    await rm(root, { recursive: true, force: true });
  };
}

async function resetPostgres(url: string) {
  const admin = postgres(url, { max: 1, onnotice: () => {} });
  try {
    await dropFileDatabases(url);
    await admin.unsafe(`drop database if exists "${TEMPLATE_DB}" with (force)`);
    await admin.unsafe(`create database "${TEMPLATE_DB}"`);
  } finally {
    await admin.end();
  }
}

async function dropFileDatabases(url: string) {
  const admin = postgres(url, { max: 1, onnotice: () => {} });
  try {
    const rows = await admin<{ datname: string }[]>`select datname from pg_database where datname like ${FILE_DB_PREFIX + "%"}`;
    for (const { datname } of rows) await admin.unsafe(`drop database if exists "${datname}" with (force)`);
  } finally {
    await admin.end();
  }
}
