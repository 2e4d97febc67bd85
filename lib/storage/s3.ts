import { createReadStream } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Readable, Transform } from "node:stream";
import { DeleteObjectCommand, GetObjectCommand, HeadObjectCommand, S3Client, type S3ServiceException } from "@aws-sdk/client-s3";
import { Upload } from "@aws-sdk/lib-storage";
import { getSignedUrl } from "@aws-sdk/s3-request-presigner";
import { OCTET_STREAM } from "./media-types";
import { rangeHeaderValue, resolveRange } from "./range";
import {
  keyUnder,
  RangeNotSatisfiable,
  type ObjectInfo,
  type ObjectRead,
  type ObjectSource,
  type ObjectStorage,
  type RangeRequest,
} from "./types";

export type S3StorageOptions = {
  bucket: string;
  region: string;
  /** Any S3 API (MinIO, R2, Ceph, …); unset means AWS. */
  endpoint?: string;
  forcePathStyle: boolean;
  accessKeyId?: string;
  secretAccessKey?: string;
  /** A CDN or public base URL for display URLs; else the bucket's own URL. */
  publicUrl?: string;
  /** Objects above this are sent as a multipart upload, in parts of this size. */
  partSizeBytes?: number;
};

/** S3 requires parts of at least 5 MiB (except the last). */
export const DEFAULT_PART_SIZE = 8 * 1024 * 1024;

// The SDK is bundled into several server chunks: read the status without `instanceof`.
const statusOf = (err: unknown) => (err as Partial<S3ServiceException> | null)?.$metadata?.httpStatusCode;
const encodeKey = (key: string) => key.split("/").map(encodeURIComponent).join("/");

export function s3Storage(options: S3StorageOptions): ObjectStorage {
  const client = new S3Client({
    region: options.region,
    endpoint: options.endpoint,
    forcePathStyle: options.forcePathStyle,
    credentials:
      options.accessKeyId && options.secretAccessKey
        ? { accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey }
        : undefined,
    // Many S3-compatible servers reject the SDK's default streaming checksums (aws-chunked
    // trailers); checksums are sent only where the API requires them. TLS covers integrity.
    requestChecksumCalculation: "WHEN_REQUIRED",
    responseChecksumValidation: "WHEN_REQUIRED",
  });
  const Bucket = options.bucket;
  const partSize = Math.max(options.partSizeBytes ?? DEFAULT_PART_SIZE, 5 * 1024 * 1024);

  /** The display URLs' base: S3_PUBLIC_URL (a CDN, or where the server serves anonymous reads), else the bucket's URL. */
  function bucketUrl(publicUrl = options.publicUrl): string {
    if (publicUrl) return publicUrl.replace(/\/+$/, "");
    if (!options.endpoint) return `https://${Bucket}.s3.${options.region}.amazonaws.com`;
    const endpoint = new URL(options.endpoint);
    const base = endpoint.pathname.replace(/\/+$/, "");
    if (options.forcePathStyle) return `${endpoint.origin}${base}/${Bucket}`;
    return `${endpoint.protocol}//${Bucket}.${endpoint.host}${base}`;
  }
  const publicBase = bucketUrl();
  // Signed URLs are on the bucket's own URL (the SDK builds them as bucketUrl() without S3_PUBLIC_URL).
  const ownBases = [...new Set([`${publicBase}/`, `${bucketUrl("")}/`])];

  async function head(key: string): Promise<ObjectInfo | null> {
    try {
      const res = await client.send(new HeadObjectCommand({ Bucket, Key: key }));
      return {
        totalBytes: res.ContentLength ?? 0,
        contentType: res.ContentType ?? OCTET_STREAM,
        etag: res.ETag ?? null,
        lastModified: res.LastModified ?? null,
      };
    } catch (err) {
      if (statusOf(err) === 404) return null;
      throw err;
    }
  }

  async function get(key: string, asked?: RangeRequest): Promise<ObjectRead | null> {
    let range = asked;
    if (range && "suffix" in range) {
      // Some S3-compatible servers mishandle `bytes=-N`; resolve it against the size first.
      const info = await head(key);
      if (!info) return null;
      range = resolveRange(range, info.totalBytes);
    }
    try {
      const res = await client.send(new GetObjectCommand({ Bucket, Key: key, Range: range ? rangeHeaderValue(range) : undefined }));
      const m = /^bytes (\d+)-(\d+)\/(\d+)$/.exec(res.ContentRange ?? "");
      const totalBytes = m ? Number(m[3]) : (res.ContentLength ?? 0);
      return {
        body: res.Body as Readable,
        range: range && m ? { start: Number(m[1]), end: Number(m[2]) } : null,
        totalBytes,
        contentType: res.ContentType ?? OCTET_STREAM,
        etag: res.ETag ?? null,
        lastModified: res.LastModified ?? null,
      };
    } catch (err) {
      const status = statusOf(err);
      // A missing bucket is storage misconfigured, not a missing object (HEAD cannot tell them apart).
      if (status === 404 && (err as { name?: string }).name !== "NoSuchBucket") return null;
      if (status === 416) {
        const info = await head(key);
        if (!info) return null;
        throw new RangeNotSatisfiable(info.totalBytes);
      }
      throw err;
    }
  }

  async function put(key: string, source: ObjectSource, contentType: string) {
    let sizeBytes = 0;
    let Body: Uint8Array | Readable;
    if (source instanceof Uint8Array) {
      Body = source;
      sizeBytes = source.byteLength;
    } else {
      const stream = source instanceof Readable ? source : createReadStream(source.filePath);
      Body = stream.pipe(
        new Transform({
          transform(chunk: Buffer, _enc, done) {
            sizeBytes += chunk.byteLength;
            done(null, chunk);
          },
        }),
      );
      stream.on("error", (err: Error) => (Body as Readable).destroy(err));
    }
    // lib-storage sends one PUT for small bodies and a multipart upload (aborted on failure,
    // so no orphaned parts are billed) for anything above one part.
    const upload = new Upload({
      client,
      params: { Bucket, Key: key, Body, ContentType: contentType },
      partSize,
      queueSize: 4,
      leavePartsOnError: false,
    });
    await upload.done();
    return { sizeBytes };
  }

  return {
    driver: "s3",
    bucket: Bucket,
    spoolDir: path.join(tmpdir(), "gw-spool"),
    put: (key, source, o) => put(key, source, o.contentType),
    get,
    head,
    async delete(key) {
      await client.send(new DeleteObjectCommand({ Bucket, Key: key }));
    },
    publicUrl: (key) => `${publicBase}/${encodeKey(key)}`,
    keyOf: (url) => keyUnder(url, ownBases),
    async providerUrl(key, ttlSeconds) {
      // SigV4 presigned URLs live at most 7 days.
      const expiresIn = Math.min(Math.max(ttlSeconds, 60), 7 * 86_400);
      const url = await getSignedUrl(client, new GetObjectCommand({ Bucket, Key: key }), { expiresIn });
      return { url, expiresAt: new Date(Date.now() + expiresIn * 1000) };
    },
  };
}
