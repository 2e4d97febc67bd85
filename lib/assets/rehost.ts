import { createHash, randomUUID } from "node:crypto";
import { rm } from "node:fs/promises";
import type { Readable } from "node:stream";
import { and, eq, ne, notInArray, sql, type SQL } from "drizzle-orm";
import { rawRows, type Db, type Executor } from "@/db/client";
import { preparedQuery } from "@/db/prepared";
import { assets } from "@/db/schema";
import { env } from "@/lib/env";
import { log } from "@/lib/logger";
import { isOutboundError, type NetPolicy, OutboundError, type Resolver, safeFetch } from "@/lib/net";
import { currentStorage, type ObjectSource, type ObjectStorage } from "@/lib/storage";
import { contentTypeForKey, extensionFor, OCTET_STREAM } from "@/lib/storage/media-types";
import { HEAD_BYTES, spoolToFile } from "@/lib/storage/spool";
import { assetKey } from "./keys";
import { findMediaUrls, rewriteMediaUrls, type Replacement } from "./media-refs";
import { classifyResult, isUnsupportedResult } from "./result-types";

export type AssetRow = typeof assets.$inferSelect;

export type RehostOptions = {
  userId: string;
  /** The generation request id: with the source URL, the idempotency key of each asset. */
  generationId: string;
  /** The provider's request id, recorded on each asset (GET /me/activity/{falRequestId}). */
  falRequestId?: string | null;
  kind?: "result" | "integration";
  /** Return the provider's URLs untouched and copy nothing (`passthrough=1`). */
  passthrough?: boolean;
  /** Per file; default REHOST_MAX_BYTES. */
  maxBytes?: number;
  /** Per file, fetch and body; default REHOST_TIMEOUT_MS. */
  timeoutMs?: number;
  /** Files copied at once; default 4. */
  concurrency?: number;
  /** Outbound policy (default ALLOW_PRIVATE_URLS) and, for tests, a resolver. */
  net?: { policy?: NetPolicy; resolver?: Resolver };
  /**
   * Reads a URL's bytes in-process when it can (the simulator's media links, which live on a
   * loopback address the outbound rules refuse); null falls back to the network.
   */
  readMedia?: (url: string) => Promise<{ bytes: Uint8Array; contentType: string } | null>;
  /** Defaults to the configured storage; null means storage is disabled. */
  storage?: ObjectStorage | null;
  /**
   * Offered each file once its object is written: true means the caller marks its row `stored`
   * in a statement of its own (a generation's ending, see `storedAssetsUpdate`), and the file
   * counts as stored already; false (or no hook) marks it here.
   */
  deferStored?: (asset: WrittenAsset) => boolean;
};

/** An object written under its row's final key, its row still `pending` until marked stored. */
export type WrittenAsset = { id: string; key: string; contentType: string; sizeBytes: number; publicUrl: string };

export type RehostResult<T> = {
  /** The result with the service's URLs (the provider's where a copy failed), or as given. */
  output: T;
  /** One row per distinct source URL, in the order they appear in the result. */
  assets: AssetRow[];
  /** `found` distinct URLs; `uploaded` stored (now or by an earlier run); `failed` not stored. */
  counts: { found: number; uploaded: number; failed: number };
  mode: "stored" | "passthrough" | "storage_disabled";
};

/**
 * Copies every file of a provider result into the service's storage and rewrites the result to
 * the service's URLs, which live until the owner deletes the asset.
 *
 * Idempotent per (generationId, source URL): the asset row is claimed with a unique index, a file
 * already stored is not fetched (or written) again (bytes at hand in memory are only re-read and
 * re-classified before the claim finds it), and a retry writes the same key, so running this twice
 * (a provider webhook and the polling fallback, or a job retry) leaves one object and one row per
 * file. A file that cannot be copied (refused address, too large, too slow, not media) is recorded
 * as `failed` with its error and keeps its provider URL in the output; a later run retries it.
 *
 * Call it outside a transaction: it holds the database only for short statements between
 * network transfers.
 */
export async function rehostResult<T>(db: Db, output: T, o: RehostOptions): Promise<RehostResult<T>> {
  const urls = findMediaUrls(output);
  if (o.passthrough) return { output, assets: [], counts: { found: urls.length, uploaded: 0, failed: 0 }, mode: "passthrough" };
  const storage = o.storage === undefined ? currentStorage() : o.storage;
  if (!storage) {
    log.warn("result kept on provider URLs: file storage is disabled", { generationId: o.generationId });
    return { output, assets: [], counts: { found: urls.length, uploaded: 0, failed: urls.length }, mode: "storage_disabled" };
  }
  const rows = await mapLimit(urls, o.concurrency ?? 4, (url) => rehostOne(db, storage, url, o));
  const replacements = new Map<string, Replacement>();
  rows.forEach((row, i) => {
    if (row.status === "stored" || row.status === "deleted") {
      replacements.set(urls[i]!, { url: row.publicUrl!, contentType: row.contentType, sizeBytes: row.sizeBytes });
    }
  });
  const uploaded = rows.filter((r) => r.status === "stored").length;
  return {
    output: rewriteMediaUrls(output, replacements),
    assets: rows,
    counts: { found: urls.length, uploaded, failed: rows.filter((r) => r.status === "failed").length },
    mode: "stored",
  };
}

/** Data URLs are recorded by digest, and very long URLs shortened, to stay within an index entry. */
export function sourceIdentity(url: string): string {
  if (url.startsWith("data:")) {
    const type = /^data:([^;,]*)/i.exec(url)?.[1] || "application/octet-stream";
    return `data:${type};sha256,${createHash("sha256").update(url).digest("hex")}`;
  }
  if (url.length <= 2048) return url;
  return `${url.slice(0, 1900)}#sha256=${createHash("sha256").update(url).digest("hex")}`;
}

type Kind = { contentType: string; ext: string };

// The two statements every stored file runs, built once per database handle (db/prepared).
const placeholders = <K extends string>(...names: K[]) =>
  Object.fromEntries(names.map((n) => [n, sql.placeholder(n)])) as unknown as Record<K, ReturnType<typeof sql.placeholder>>;
const claimAsset = preparedQuery((db) =>
  db
    .insert(assets)
    .values(
      placeholders("id", "userId", "kind", "generationId", "falRequestId", "sourceUrl", "s3Key", "s3Bucket", "status", "error") as never,
    )
    .onConflictDoNothing({ target: [assets.generationId, assets.sourceUrl] })
    .returning()
    .prepare("asset_claim"),
);
const markStored = preparedQuery((db) =>
  db
    .update(assets)
    .set({
      status: "stored",
      error: null,
      s3Key: sql`${sql.placeholder("key")}`,
      s3Bucket: sql`${sql.placeholder("bucket")}`,
      contentType: sql`${sql.placeholder("contentType")}`,
      sizeBytes: sql`${sql.placeholder("sizeBytes")}`,
      publicUrl: sql`${sql.placeholder("publicUrl")}`,
    })
    .where(and(eq(assets.id, sql.placeholder("id")), ne(assets.status, "deleted")))
    .returning()
    .prepare("asset_stored"),
);

/**
 * Inserts the file's row, or finds the one an earlier or concurrent run inserted. A new row gets
 * its key at once: the final one when the type is already known (`ext`), else a provisional one.
 */
async function claimRow(
  db: Db,
  storage: ObjectStorage,
  o: RehostOptions,
  sourceUrl: string,
  init: { ext?: string; error?: string },
): Promise<AssetRow> {
  const id = randomUUID();
  const [inserted] = await claimAsset(db).execute({
    id,
    userId: o.userId,
    kind: o.kind ?? "result",
    generationId: o.generationId,
    falRequestId: o.falRequestId ?? null,
    sourceUrl,
    s3Key: assetKey("result", id, init.ext),
    s3Bucket: storage.bucket,
    status: init.error === undefined ? "pending" : "failed",
    error: init.error ?? null,
  });
  if (inserted) return inserted;
  const [existing] = await db
    .select()
    .from(assets)
    .where(and(eq(assets.generationId, o.generationId), eq(assets.sourceUrl, sourceUrl)));
  return existing!;
}

/** Updates never touch a row its owner has deleted in the meantime. */
const live = (id: string) => and(eq(assets.id, id), ne(assets.status, "deleted"));

async function reload(db: Db, id: string): Promise<AssetRow> {
  const [row] = await db.select().from(assets).where(eq(assets.id, id));
  return row!;
}

/**
 * One file, in the fewest statements. Bytes already in memory (the simulator's media via
 * `readMedia`, a data: URL) are classified before anything is written, so the row is inserted
 * with its final key, the bytes are stored straight from memory (no spool file) and the row is
 * marked stored: two statements. A network file is claimed first (so a stored file is not
 * fetched again) under the key its URL's extension suggests, spooled to disk with constant
 * memory, and its key is corrected only when the bytes turn out to be another type.
 *
 * Either way the row records the object's final key before the object is written: a crash in
 * between leaves a `pending` row that still finds (and can delete) its object, and a retry
 * writes the same key. (A single statement per file would have to write the object before any
 * row names it: a crash there orphans an object no row, owner or sweep can find; its key would
 * have to be derived from (generationId, source) with a secret to stay unguessable; and a retry
 * after the owner deleted the asset would serve its URL again until the upsert noticed.)
 */
async function rehostOne(db: Db, storage: ObjectStorage, url: string, o: RehostOptions): Promise<AssetRow> {
  const sourceUrl = sourceIdentity(url);
  const maxBytes = o.maxBytes ?? env().REHOST_MAX_BYTES;
  let held: { bytes: Uint8Array; kind: Kind } | null;
  try {
    held = await holdInMemory(url, maxBytes, o);
  } catch (err) {
    // Nothing is written yet: the row is inserted as failed (a new row needs no second statement).
    const error = describe(err);
    const row = await claimRow(db, storage, o, sourceUrl, { error });
    if (row.status !== "pending" && row.status !== "failed") return row;
    log.warn("re-hosting a result file failed", { generationId: o.generationId, assetId: row.id, error });
    if (row.status === "failed" && row.error === error) return row;
    return markFailed(db, row.id, error);
  }
  const row = await claimRow(db, storage, o, sourceUrl, { ext: held ? held.kind.ext : extensionOfUrl(url) });
  if (row.status === "stored" || row.status === "deleted") return row;
  try {
    if (held) return await store(db, storage, row, held.kind, held.bytes, held.bytes.byteLength, o.deferStored);
    return await copyStream(db, storage, row, url, maxBytes, o);
  } catch (err) {
    const error = describe(err);
    log.warn("re-hosting a result file failed", { generationId: o.generationId, assetId: row.id, error });
    return markFailed(db, row.id, error);
  }
}

async function markFailed(db: Db, id: string, error: string): Promise<AssetRow> {
  // A concurrent run (a webhook and the polling fallback) may have stored the file meanwhile:
  // its copy and its URL stand, and this run's failure changes nothing.
  const [failed] = await db
    .update(assets)
    .set({ status: "failed", error })
    .where(and(eq(assets.id, id), notInArray(assets.status, ["deleted", "stored"])))
    .returning();
  return failed ?? (await reload(db, id));
}

/** Writes the object under the row's final key and marks the row stored. */
async function store(
  db: Db,
  storage: ObjectStorage,
  row: AssetRow,
  kind: Kind,
  source: ObjectSource,
  sizeBytes: number,
  deferStored: RehostOptions["deferStored"],
): Promise<AssetRow> {
  const key = assetKey("result", row.id, kind.ext);
  // Record the final key before writing (a row claimed with it already has it), so a crash
  // between the two leaves a row that still finds (and can delete) its object.
  if (key !== row.s3Key || row.s3Bucket !== storage.bucket) {
    await db.update(assets).set({ s3Key: key, s3Bucket: storage.bucket }).where(live(row.id));
  }
  await storage.put(key, source, { contentType: kind.contentType });
  const written: WrittenAsset = { id: row.id, key, contentType: kind.contentType, sizeBytes, publicUrl: storage.publicUrl(key) };
  if (deferStored?.(written)) {
    return {
      ...row,
      s3Key: key,
      s3Bucket: storage.bucket,
      contentType: written.contentType,
      sizeBytes,
      publicUrl: written.publicUrl,
      status: "stored",
      error: null,
    };
  }
  const [stored] = await markStored(db).execute({ ...written, bucket: storage.bucket });
  if (stored) return stored;
  // The owner deleted the asset while it was being copied: the copy must not outlive that.
  await storage.delete(key);
  return reload(db, row.id);
}

/** A network file: spooled to disk (constant memory, cut off past maxBytes), then stored. */
async function copyStream(
  db: Db,
  storage: ObjectStorage,
  row: AssetRow,
  url: string,
  maxBytes: number,
  o: RehostOptions,
): Promise<AssetRow> {
  const { body, declaredType } = await openStream(url, maxBytes, o);
  let kind: Kind | undefined;
  const spooled = await spoolToFile(body, {
    dir: storage.spoolDir,
    maxBytes,
    tooLarge: () => tooLarge(maxBytes),
    onHead: async (head) => {
      kind = await classifyResult(head, declaredType);
    },
  });
  try {
    return await store(db, storage, row, kind!, { filePath: spooled.path }, spooled.sizeBytes, o.deferStored);
  } finally {
    await rm(spooled.path, { force: true });
  }
}

const tooLarge = (maxBytes: number) => new OutboundError("too_large", `The file is larger than ${maxBytes} bytes`);

/**
 * The file's bytes and type when they are at hand without a download (a data: URL, or media
 * `readMedia` serves in-process); null for a network file. Classified on the same head a
 * spooled download would be.
 */
async function holdInMemory(url: string, maxBytes: number, o: RehostOptions): Promise<{ bytes: Uint8Array; kind: Kind } | null> {
  let bytes: Uint8Array;
  let declaredType: string | null;
  if (url.startsWith("data:")) {
    const m = /^data:([^,]*?),(.*)$/is.exec(url);
    if (!m) throw new OutboundError("invalid_url", "Malformed data URL");
    const params = m[1]!.split(";");
    const isBase64 = params.at(-1)?.toLowerCase() === "base64";
    bytes = isBase64 ? Buffer.from(m[2]!, "base64") : Buffer.from(decodeURIComponent(m[2]!), "utf8");
    declaredType = params[0] || null;
  } else {
    const local = o.readMedia ? await o.readMedia(url) : null;
    if (!local) return null;
    bytes = local.bytes;
    declaredType = local.contentType;
  }
  if (bytes.byteLength > maxBytes) throw tooLarge(maxBytes);
  return { bytes, kind: await classifyResult(bytes.subarray(0, HEAD_BYTES), declaredType) };
}

/**
 * The media extension a URL's path ends with (`…/image.png`), else undefined: the likely final
 * key of a network file, so a file that is what its name says needs no key update.
 */
function extensionOfUrl(url: string): string | undefined {
  let pathname: string;
  try {
    pathname = new URL(url).pathname.replace(/\.jpeg$/i, ".jpg");
  } catch {
    return undefined;
  }
  const type = contentTypeForKey(pathname);
  return type === OCTET_STREAM ? undefined : extensionFor(type);
}

async function openStream(url: string, maxBytes: number, o: RehostOptions): Promise<{ body: Readable; declaredType: string | null }> {
  const res = await safeFetch(url, {
    maxBytes,
    timeoutMs: o.timeoutMs ?? env().REHOST_TIMEOUT_MS,
    policy: o.net?.policy,
    resolver: o.net?.resolver,
  });
  if (res.status !== 200) {
    res.discard();
    throw new OutboundError("bad_status", `The origin answered HTTP ${res.status}`, res.status);
  }
  const type = res.headers["content-type"];
  return { body: res.body, declaredType: typeof type === "string" ? type : null };
}

function describe(err: unknown): string {
  if (isOutboundError(err) || isUnsupportedResult(err)) return `${err.code}: ${err.message}`.slice(0, 500);
  return `storage_error: ${err instanceof Error ? err.message : String(err)}`.slice(0, 500);
}

async function mapLimit<T, R>(items: T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await fn(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(Math.max(limit, 1), items.length) }, worker));
  return results;
}

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
