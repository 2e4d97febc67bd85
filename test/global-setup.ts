import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import postgres from "postgres";
import type { TestProject } from "vitest/node";
import { pgliteDb, postgresHandle } from "@/db/client";
import { migrateDatabase } from "@/db/migrate";
import { seedDatabase } from "@/db/seed";
import { installCatalogSeed } from "@/lib/catalog/seed";
import { DB_NAME_PREFIX, templateDb, testDatabaseUrl, withDatabase } from "./db";

declare module "vitest" {
  export interface ProvidedContext {
    pgliteSnapshot: string | undefined;
    testRoot: string;
    runId: string;
  }
}

/** Migrates and seeds one database for the whole run; each test file then copies it. */
export default async function setup(project: TestProject) {
  installCatalogSeed();
  const root = await mkdtemp(path.join(tmpdir(), "gw-test-"));
  project.provide("testRoot", root);
  const runId = String(process.pid);
  project.provide("runId", runId);
  const url = testDatabaseUrl();
  if (url) {
    await createTemplate(url, runId);
    await migrateDatabase({ kind: "postgres", url: withDatabase(url, templateDb(runId)) });
    const handle = postgresHandle(withDatabase(url, templateDb(runId)), 1);
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
    if (url) await dropDatabases(url, (pid) => pid === runId);
    await rm(root, { recursive: true, force: true });
  };
}

async function createTemplate(url: string, runId: string) {
  await dropDatabases(url, (pid) => !isAlive(Number(pid)));
  const admin = postgres(url, { max: 1, onnotice: () => {} });
  try {
    await admin.unsafe(`create database "${templateDb(runId)}"`);
  } finally {
    await admin.end();
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Drops this project's test databases whose run id (a pid) satisfies `which`. */
async function dropDatabases(url: string, which: (runId: string) => boolean) {
  const admin = postgres(url, { max: 1, onnotice: () => {} });
  try {
    const rows = await admin<{ datname: string }[]>`select datname from pg_database where datname like ${DB_NAME_PREFIX + "%"}`;
    for (const { datname } of rows) {
      const runId = datname.slice(DB_NAME_PREFIX.length).split("_")[0]!;
      if (which(runId)) await admin.unsafe(`drop database if exists "${datname}" with (force)`);
    }
  } finally {
    await admin.end();
  }
}
