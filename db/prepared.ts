import type { Executor } from "./client";

/**
 * A hot query built once per database handle (drizzle's `.prepare`, values as `sql.placeholder`):
 * later runs skip building its SQL text, which on a 30-column select costs more CPU than the
 * round trip itself. Keyed by the handle object, so per-test databases each get their own.
 */
export function preparedQuery<Q>(build: (db: Executor) => Q): (db: Executor) => Q {
  const built = new WeakMap<Executor, Q>();
  return (db) => {
    let query = built.get(db);
    if (!query) built.set(db, (query = build(db)));
    return query;
  };
}
