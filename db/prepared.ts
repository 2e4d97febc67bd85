import type { SQL } from "drizzle-orm";
import type { Executor } from "./client";

/**
 * A hot query built once per database handle (drizzle's `.prepare`, values as `sql.placeholder`):
 * later runs skip building its SQL text (docs/database.md says what that costs). Keyed by the
 * handle object, so per-test databases each get their own.
 */
export function preparedQuery<Q>(build: (db: Executor) => Q): (db: Executor) => Q {
  const built = new WeakMap<Executor, Q>();
  return (db) => {
    let query = built.get(db);
    if (!query) built.set(db, (query = build(db)));
    return query;
  };
}

type RawPrepared = { execute: (values: Record<string, unknown>) => Promise<unknown> };
type Internals = {
  session: { prepareQuery: (query: unknown, fields: undefined, name: undefined, arrayMode: boolean) => RawPrepared };
  dialect: { sqlToQuery: (sql: SQL) => unknown };
};

/**
 * A raw SQL statement (one the builder cannot express) built once per database handle and
 * `shape`, values as `sql.placeholder(name)` given with each call, so drizzle does not walk the
 * template again (docs/database.md). `shape` names what changes the text (which parts are present,
 * how many of a list). Placeholder values go to the driver as they are: strings, numbers,
 * booleans, null, with casts in the SQL (`::jsonb` over a JSON string, `::timestamptz` over an ISO string).
 */
export function preparedStatement<S extends string>(build: (shape: S) => SQL) {
  const built = new WeakMap<Executor, Map<S, RawPrepared>>();
  return async <T>(db: Executor, shape: S, values: Record<string, unknown>): Promise<T[]> => {
    let shapes = built.get(db);
    if (!shapes) built.set(db, (shapes = new Map()));
    let statement = shapes.get(shape);
    if (!statement) {
      const { session, dialect } = db as unknown as Internals;
      statement = session.prepareQuery(dialect.sqlToQuery(build(shape)), undefined, undefined, false);
      shapes.set(shape, statement);
    }
    const result = (await statement.execute(values)) as T[] | { rows: T[] };
    return Array.isArray(result) ? result : result.rows;
  };
}
