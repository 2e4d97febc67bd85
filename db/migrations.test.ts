import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { sql } from "drizzle-orm";
import { describe, expect, test } from "vitest";
import { getDbHandle, pgliteDb, rawRows, type Executor } from "@/db/client";
import { migrateDatabase, migrationsFolder } from "@/db/migrate";

type Column = { table_name: string; column_name: string; data_type: string; is_nullable: string };

async function describeSchema(db: Executor) {
  const columns = await rawRows<Column>(
    db,
    sql`select table_name, column_name, data_type, is_nullable from information_schema.columns
        where table_schema = 'public' order by table_name, column_name`,
  );
  const indexes = await rawRows<{ indexname: string }>(
    db,
    sql`select indexname from pg_indexes where schemaname = 'public' order by indexname`,
  );
  return { columns, indexes: indexes.map((i) => i.indexname) };
}

function latestSnapshot() {
  const meta = path.join(migrationsFolder, "meta");
  const last = readdirSync(meta)
    .filter((f) => f.endsWith("_snapshot.json"))
    .sort()
    .pop()!;
  return JSON.parse(readFileSync(path.join(meta, last), "utf8")) as {
    tables: Record<string, { name: string; columns: Record<string, unknown> }>;
  };
}

describe("migrations", () => {
  test("a fresh PGlite migrates to exactly the schema of this run's database (PostgreSQL in CI)", async () => {
    const client = await PGlite.create();
    try {
      await migrateDatabase({ kind: "pglite", db: pgliteDb(client) });
      const fresh = await describeSchema(pgliteDb(client));
      const current = await describeSchema((await getDbHandle()).db);
      expect(fresh.columns.length).toBeGreaterThan(100);
      expect(current).toEqual(fresh);
    } finally {
      await client.close();
    }
  });

  test("the checked-in migrations produce every table and column of the drizzle schema", async () => {
    const { columns } = await describeSchema((await getDbHandle()).db);
    const actual = new Set(columns.filter((c) => !c.table_name.startsWith("__")).map((c) => `${c.table_name}.${c.column_name}`));
    const expected = new Set(Object.values(latestSnapshot().tables).flatMap((t) => Object.keys(t.columns).map((c) => `${t.name}.${c}`)));
    expect([...actual].sort()).toEqual([...expected].sort());
  });
});
