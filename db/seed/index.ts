import type { Db } from "@/db/client";
import { processWide } from "@/lib/core/process-wide";
import { seedChangelog } from "./changelog";

type Seeder = (db: Db) => Promise<void>;

/**
 * Seeders the domain adds (the catalog prices its seed models with the gateway's own pricing, which
 * db/ must not import): installed at start-up (lib/server/start.ts) and by the tests' global setup,
 * before the database is first opened. Process-wide, so every bundle's copy sees one list.
 */
const added = processWide("db-seeders", () => new Map<string, Seeder>());

/** Adds (or replaces) a named seeder; it runs after the built-in ones on every open. */
export function addSeeder(name: string, seed: Seeder): void {
  added.set(name, seed);
}

/**
 * Reference data every database starts with, applied after migrations on each start. Seeders are
 * idempotent upserts that never overwrite what an admin changed at runtime unless they say so.
 */
export async function seedDatabase(db: Db): Promise<void> {
  await seedChangelog(db);
  for (const seed of added.values()) await seed(db);
}
