import { brand } from "@/lib/core/brand";
import type { Readable } from "node:stream";

/** Bytes to store: in memory, a stream, or a finished temp file the storage may move. */
export type ObjectSource = Uint8Array | Readable | { filePath: string };

export type PutOptions = { contentType: string };

/** A byte range as asked for: `start-end`, `start-` or the last `suffix` bytes. */
export type RangeRequest = { start: number; end?: number } | { suffix: number };

/** A resolved, inclusive byte range. */
export type ByteRange = { start: number; end: number };

export type ObjectInfo = {
  totalBytes: number;
  contentType: string;
  etag: string | null;
  lastModified: Date | null;
};

export type ObjectRead = ObjectInfo & {
  body: Readable;
  /** Set when a range was asked for and served. */
  range: ByteRange | null;
};

/** The asked range does not overlap the object (HTTP 416). */
export class RangeNotSatisfiable extends Error {
  constructor(readonly totalBytes: number) {
    super(`Range not satisfiable; the object has ${totalBytes} bytes`);
    this.name = "RangeNotSatisfiable";
  }
}
const rangeNotSatisfiable = brand<RangeNotSatisfiable>("range-not-satisfiable");
rangeNotSatisfiable.mark(RangeNotSatisfiable);
export const isRangeNotSatisfiable = rangeNotSatisfiable.is;

/**
 * Object storage: the embedded `local` driver (files under DATA_DIR/assets, served by the app)
 * or `s3` (any S3 API). Keys are chosen by the service, never by users.
 */
export interface ObjectStorage {
  readonly driver: "local" | "s3";
  /** Recorded in `assets.s3_bucket` (`local` for the disk driver). */
  readonly bucket: string;
  /** Where uploads and downloads are spooled before they are stored (same disk for `local`). */
  readonly spoolDir: string;
  /** Stores an object whole or not at all: readers never see a partial object. */
  put(key: string, source: ObjectSource, options: PutOptions): Promise<{ sizeBytes: number }>;
  /** Null when the object does not exist; throws RangeNotSatisfiable for a range past its end. */
  get(key: string, range?: RangeRequest): Promise<ObjectRead | null>;
  head(key: string): Promise<ObjectInfo | null>;
  /** Idempotent: deleting a missing object succeeds. */
  delete(key: string): Promise<void>;
  /** The permanent display URL (until the object is deleted). */
  publicUrl(key: string): string;
  /** A URL a generation provider can fetch; may expire (signed S3 URL). */
  providerUrl(key: string, ttlSeconds: number): Promise<{ url: string; expiresAt: Date | null }>;
  /**
   * The key of this storage's object named by `url` — a display URL, or a signed provider URL,
   * which on S3 is on the bucket's own URL even when S3_PUBLIC_URL (a CDN) serves display URLs;
   * query ignored — else null.
   */
  keyOf(url: string): string | null;
}

/** The key `url` names under one of `bases` (URLs ending in `/`), query ignored; null otherwise. */
export function keyUnder(url: string, bases: readonly string[]): string | null {
  const bare = url.split(/[?#]/)[0]!;
  const base = bases.find((b) => bare.startsWith(b) && bare.length > b.length);
  if (!base) return null;
  try {
    return bare
      .slice(base.length)
      .split("/")
      .map((s) => decodeURIComponent(s))
      .join("/");
  } catch {
    return null;
  }
}
