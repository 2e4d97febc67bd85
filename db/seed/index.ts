import type { Db } from "@/db/client";
import { seedCatalog } from "./catalog";
import { seedChangelog } from "./changelog";

/**
 * Reference data every database starts with, applied after migrations on each start. Seeders are
 * idempotent upserts that never overwrite what an admin changed at runtime unless they say so.
 */
const seeders: Array<(db: Db) => Promise<void>> = [seedChangelog, seedCatalog];

export async function seedDatabase(db: Db): Promise<void> {
  for (const seed of seeders) await seed(db);
}
