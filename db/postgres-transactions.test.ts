import { readFileSync } from "node:fs";
import path from "node:path";
import { sql } from "drizzle-orm";
import postgres from "postgres";
import { describe, expect, test } from "vitest";
import { getDb, rawRows } from "@/db/client";
import { testDatabaseUrl, withDatabase } from "@/test/db";

/**
 * postgres.js 3.4.9 reserves a transaction's connection in a hook it skips when BEGIN fills the
 * connection's pipeline or meets socket backpressure: the transaction then stays open on a pooled
 * connection, and other callers' statements run (and commit or roll back) inside it
 * (porsager/postgres#823, #1189; seen under the field bench's load as UNSAFE_TRANSACTION). The
 * installed package is patched (patches/postgres+3.4.9.patch, applied by `npm install`).
 */
const builds = ["src", "cjs/src", "cf/src"].map((dir) => path.join("node_modules/postgres", dir, "connection.js"));

describe("postgres.js transactions under a full pipeline", () => {
  test("the installed driver is patched; on PostgreSQL no statement runs inside another caller's transaction", async () => {
    for (const file of builds) {
      const source = readFileSync(file, "utf8");
      expect(source, file).toContain("return q.options.onexecute(connection), false");
      expect(source, file).toContain("!query && !connection.reserved && onopen(connection)");
    }
    const url = testDatabaseUrl();
    // PGlite has one session and no pool: the patch check above is what applies there.
    if (!url) return;
    const [db] = await rawRows<{ name: string }>(await getDb(), sql`select current_database() as name`);
    // Three connections, two statements in flight on each: BEGIN lands on full pipelines all the time.
    // (`max_pipeline` is read by postgres-js but missing from its option types.)
    const client = postgres(withDatabase(url, db!.name), { max: 3, onnotice: () => {}, ...{ max_pipeline: 2 } });
    const xids = new Map<string, number>();
    const failures: string[] = [];
    const seen = (xid: string) => xids.set(xid, (xids.get(xid) ?? 0) + 1);
    try {
      const transaction = () =>
        client
          .begin(async (tx) => {
            const [row] = await tx`select pg_current_xact_id()::text as xid`;
            seen(row!.xid as string);
            await tx`select pg_sleep(0.001)`;
          })
          .catch((err: Error) => void failures.push(err.message));
      const statement = async () => {
        const [row] = await client`select pg_current_xact_id()::text as xid, pg_sleep(0.001)`;
        seen(row!.xid as string);
      };
      await Promise.all(
        Array.from({ length: 30 }, async () => {
          for (let i = 0; i < 40; i++) await (i % 4 === 0 ? transaction() : statement());
        }),
      );
    } finally {
      await client.end({ timeout: 1 });
    }
    expect(failures).toEqual([]);
    expect(xids.size).toBe(30 * 40);
    // A statement that ran inside a transaction shares its transaction id.
    expect([...xids.values()].filter((n) => n > 1)).toEqual([]);
  });
});
