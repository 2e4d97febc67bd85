import type { Executor } from "@/db/client";
import { preparedQuery } from "@/db/prepared";
import { catalogVersion } from "@/db/schema";
import { processWide } from "@/lib/core/process-wide";
import { SizedLru } from "@/lib/core/sized-lru";

const versionOf = preparedQuery((db) => db.select({ version: catalogVersion.version }).from(catalogVersion).prepare("catalog_version"));

type Kept<V> = { version: number; values: SizedLru<V> };

/**
 * Answers about the catalog kept for as long as it is unchanged: `catalog_version` (one row) is
 * moved by a statement trigger on `models` whenever what a list shows, filters or sorts by may
 * have changed, whoever writes (an admin, a sync, the seeder, the popularity flush, another
 * instance, SQL), so each call costs one primary-key read and the database computes an answer once
 * per version and key. A version read before a write commits keeps answers computed at or after
 * it, never older ones, so a caller sees its own writes. Kept per database handle (per-test
 * databases each get their own) and per process (`processWide`), bounded by `maxSize` in `sizeOf`
 * units. Answers are shared between callers: treat them as read-only.
 */
export function keptPerVersion<V>(name: string, maxSize: number, sizeOf: (value: V) => number) {
  const kept = processWide(`catalog-kept:${name}`, () => new WeakMap<Executor, Kept<V>>());
  return async (db: Executor, key: string, compute: () => Promise<V>): Promise<V> => {
    const [row] = await versionOf(db).execute();
    const version = row?.version ?? -1;
    let entry = kept.get(db);
    if (!entry || entry.version !== version) kept.set(db, (entry = { version, values: new SizedLru<V>(maxSize, sizeOf) }));
    return entry.values.getOrCreate(key, compute);
  };
}
