import { mkdirSync } from "node:fs";
import path from "node:path";
import type { PGlite } from "@electric-sql/pglite";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { drizzle as drizzlePostgres, type PostgresJsDatabase } from "drizzle-orm/postgres-js";
import postgres from "postgres";
import { getTableColumns, type SQL } from "drizzle-orm";
import type { PgTable } from "drizzle-orm/pg-core";
import { env } from "@/lib/core/env";
import { log } from "@/lib/core/logger";
import { migrateDatabase } from "./migrate";
import { seedDatabase } from "./seed";
import * as schema from "./schema";
import { announcePglite, type PgliteExposure } from "./pglite-exposure";
import { openPgliteThread, type PgliteThread } from "./pglite-thread";

/**
 * The database: PostgreSQL (postgres-js) when DATABASE_URL is set, otherwise PGlite stored under
 * DATA_DIR. Both are typed as the postgres-js database: the query builder is identical, so every
 * query in lib/ runs on either. Avoid `db.execute()` result shapes (they differ); use the builder.
 *
 * PGlite is a single connection that serialises everything, so inside `db.transaction(tx => …)`
 * use only `tx`: a query on the outer `db` waits for the transaction and never returns.
 */
export type Db = PostgresJsDatabase<typeof schema>;
export type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];
/** Anything queries can run on: the database or an open transaction. */
export type Executor = Db | Tx;

export type DbHandle = {
  db: Db;
  kind: "postgres" | "pglite";
  /** Loopback port where an embedded PGlite is reachable by other processes. */
  port?: number;
  close: () => Promise<void>;
};

const globalForDb = globalThis as unknown as { __gwDb?: Promise<DbHandle> };

/** The process-wide database, opened and migrated once (survives dev hot reloads). */
export function getDbHandle(): Promise<DbHandle> {
  globalForDb.__gwDb ??= openDatabase().catch((err) => {
    globalForDb.__gwDb = undefined;
    throw err;
  });
  return globalForDb.__gwDb;
}

export async function getDb(): Promise<Db> {
  return (await getDbHandle()).db;
}

/** Tests install their own per-file database. */
export function setDbHandle(handle: DbHandle): void {
  globalForDb.__gwDb = Promise.resolve(handle);
}

export async function closeDb(): Promise<void> {
  const pending = globalForDb.__gwDb;
  globalForDb.__gwDb = undefined;
  if (pending) await (await pending).close();
}

async function openDatabase(): Promise<DbHandle> {
  const { DATABASE_URL, DATABASE_POOL_MAX, DATABASE_PREPARE } = env();
  if (DATABASE_URL) {
    await migrateDatabase({ kind: "postgres", url: DATABASE_URL });
    const handle = postgresHandle(DATABASE_URL, DATABASE_POOL_MAX, { prepare: DATABASE_PREPARE });
    await seedDatabase(handle.db);
    return handle;
  }
  return openEmbedded();
}

export function postgresHandle(url: string, max: number, options: { prepare?: boolean } = {}): DbHandle {
  const open = (extra: postgres.Options<Record<string, never>> = {}) => {
    const created = postgres(url, { max, onnotice: () => {}, ...extra });
    return options.prepare === false ? created : preparing(created);
  };
  const client = open();
  const relaxedClient = open({ connection: { synchronous_commit: "off" } });
  const db = drizzlePostgres(client, { schema });
  relaxedTwins.set(db, drizzlePostgres(relaxedClient, { schema }));
  return {
    db,
    kind: "postgres",
    close: async () => {
      await Promise.all([client.end({ timeout: 5 }), relaxedClient.end({ timeout: 5 })]);
    },
  };
}

export function pgliteDb(client: PGlite): Db {
  // Same query builder, different driver: see the note on `Db` above.
  return drizzlePglite(client, { schema }) as unknown as Db;
}

/**
 * The embedded default: PGlite on a thread of its own (db/pglite-thread.ts), so its queries do not
 * stall the server's requests; served on a loopback port for other processes.
 */
async function openEmbedded(): Promise<DbHandle> {
  const dir = path.resolve(env().DATA_DIR, "pglite");
  mkdirSync(dir, { recursive: true });
  const thread = await openPgliteThread({ dataDir: dir });
  const handle = pgliteThreadHandle(thread);
  await migrateDatabase({ kind: "pglite", db: handle.db });
  await seedDatabase(handle.db);
  let exposure: PgliteExposure | undefined;
  try {
    exposure = announcePglite(await thread.expose(env().PGLITE_PORT), async () => {});
    log.info("embedded database ready", { dir, port: exposure.port });
  } catch (err) {
    log.warn("embedded database is not reachable from other processes", { error: String(err) });
  }
  return {
    ...handle,
    port: exposure?.port,
    close: async () => {
      await exposure?.stop();
      await handle.close();
    },
  };
}

/** A handle on PGlite running on its own thread (the embedded default; tests may open one too). */
export function pgliteThreadHandle(thread: PgliteThread): DbHandle {
  return { db: pgliteDb(thread.client), kind: "pglite", close: thread.close };
}

const relaxedTwins = new WeakMap<Executor, Db>();

/**
 * The same database over asynchronously committing connections (`synchronous_commit = off`): for
 * writes a PostgreSQL crash may take back, never for money or a job's creation and ending. Which
 * writes and why: docs/database.md.
 */
export function relaxedOf<T extends Executor>(db: T): T {
  return (relaxedTwins.get(db) as T | undefined) ?? db;
}

/**
 * Every query as a server-side prepared statement, once per connection: one round trip per run
 * instead of two (figures in docs/database.md). Transactions and savepoints are new scopes, so they
 * are wrapped too.
 */
function preparing<T extends postgres.Sql | postgres.TransactionSql>(sql: T): T {
  type Loose = Record<string, (...args: unknown[]) => unknown>;
  const s = sql as unknown as Loose;
  const unsafe = s.unsafe!;
  s.unsafe = (query, args, options) =>
    Array.isArray(args) || args === undefined
      ? unsafe(query, args, { ...(options as object), prepare: true })
      : unsafe(query, { ...(args as object), prepare: true });
  for (const scope of ["begin", "savepoint"] as const) {
    const open = s[scope];
    if (!open) continue;
    s[scope] = (...args) => {
      const fn = args.pop() as (tx: postgres.TransactionSql) => unknown;
      return open.call(sql, ...args, (tx: postgres.TransactionSql) => fn(preparing(tx)));
    };
  }
  return sql;
}

/** Rows of a raw SQL query on either driver (postgres-js returns an array, PGlite `{ rows }`). */
export async function rawRows<T>(db: Executor, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as T[] | { rows: T[] };
  return Array.isArray(result) ? result : result.rows;
}

/**
 * A row of `table` as raw SQL returns it (`returning *`: column names, driver values), mapped the
 * way the query builder maps its own results: for statements the builder cannot express.
 */
export function tableRow<T extends PgTable>(table: T, raw: Record<string, unknown>): T["$inferSelect"] {
  const row: Record<string, unknown> = {};
  for (const [key, column] of Object.entries(getTableColumns(table))) {
    const value = raw[column.name];
    row[key] = value === null || value === undefined ? null : column.mapFromDriverValue(value);
  }
  return row as T["$inferSelect"];
}
