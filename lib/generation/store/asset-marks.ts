import { sql, type SQL } from "drizzle-orm";
import { rawRows, type Executor } from "@/db/client";
import { assets } from "@/db/schema";
import type { WrittenAsset } from "@/lib/assets/rehost";
import { log } from "@/lib/core/logger";
import { currentStorage } from "@/lib/storage";

// The `stored` marks of the files a run copied and left to its journal or its ending (RehostOptions.deferStored).

/**
 * The update marking written files stored, for a statement of the caller's (a CTE body):
 * returns the ids it marked. A row its owner deleted while the file was copied stays deleted
 * (its id is not returned: `discardUnstored` removes the object).
 */
export function storedAssetsUpdate(ids: unknown[], byId: unknown): SQL {
  // `id in ($1, …)`, not a join with a JSON record set: the planner then finds the rows by their
  // primary key instead of guessing a hundred rows and scanning the whole table.
  return sql`update ${assets} a
       set status = 'stored', error = null, content_type = (${byId}::jsonb -> a.id ->> 'content_type'),
           size_bytes = (${byId}::jsonb -> a.id ->> 'size_bytes')::bigint, public_url = (${byId}::jsonb -> a.id ->> 'public_url')
     where a.id in (${sql.join(
       ids.map((id) => sql`${id}::text`),
       sql`, `,
     )}) and a.status <> 'deleted'
    returning a.id`;
}

/** What `storedAssetsUpdate` records of each file, as its `byId` JSON. */
const storedAssetsJson = (written: WrittenAsset[]) =>
  JSON.stringify(
    Object.fromEntries(written.map((w) => [w.id, { content_type: w.contentType, size_bytes: w.sizeBytes, public_url: w.publicUrl }])),
  );

/** `storedAssetsUpdate` over placeholders `asset0…` and `assets`: these are their values. */
export function storedAssetsValues(written: WrittenAsset[]): Record<string, string> {
  const values: Record<string, string> = { assets: storedAssetsJson(written) };
  written.forEach((w, i) => (values[`asset${i}`] = w.id));
  return values;
}

/** Marks written files stored now (see `storedAssetsUpdate`) and discards what was deleted meanwhile. */
export async function markWrittenStored(db: Executor, written: WrittenAsset[], storage = currentStorage()): Promise<void> {
  if (written.length === 0) return;
  const marked = await rawRows<{ id: string }>(
    db,
    sql`with marked as (${storedAssetsUpdate(
      written.map((w) => w.id),
      storedAssetsJson(written),
    )}) select id from marked`,
  );
  await discardUnstored(
    written,
    marked.map((r) => r.id),
    storage,
  );
}

/** The objects of written files whose rows were not marked stored (deleted while copied): the copy must not outlive the deletion. */
export async function discardUnstored(written: WrittenAsset[], markedIds: string[], storage = currentStorage()): Promise<void> {
  const marked = new Set(markedIds);
  for (const w of written) {
    if (!marked.has(w.id))
      await storage?.delete(w.key).catch((error) => log.warn("could not delete the copy of a deleted asset", { assetId: w.id, error }));
  }
}
