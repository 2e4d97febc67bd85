import { rm } from "node:fs/promises";
import type { Db } from "@/db/client";
import { env } from "@/lib/core/env";
import { log } from "@/lib/core/logger";
import type { NetPolicy, Resolver } from "@/lib/net";
import { currentStorage, type ObjectSource, type ObjectStorage } from "@/lib/storage";
import { spoolToFile } from "@/lib/storage/spool";
import { assetKey } from "./keys";
import { findMediaUrls, rewriteMediaUrls, type Replacement } from "./media-refs";
import { classifyResult } from "./result-types";
import { claimRow, markFailed, markRowStored, recordFinalKey, reload, type AssetRow } from "./rehost-rows";
import { describe, extensionOfUrl, holdInMemory, openStream, sourceIdentity, tooLarge, type Kind } from "./rehost-source";

export type { AssetRow } from "./rehost-rows";
export { sourceIdentity } from "./rehost-source";

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
   * in a statement of its own (a generation's ending: lib/generation/store/asset-marks.ts), and the file
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
  if (key !== row.s3Key || row.s3Bucket !== storage.bucket) await recordFinalKey(db, row.id, key, storage.bucket);
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
  const stored = await markRowStored(db, written, storage.bucket);
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
