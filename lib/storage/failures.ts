import { DomainError, isDomainError } from "@/lib/core/errors";
import { log } from "@/lib/core/logger";
import { isValidKey } from "./keys";
import { isRangeNotSatisfiable, type ObjectStorage } from "./types";

/**
 * Storage that fails at run time (S3 unreachable, a wrong secret, a bucket gone, a full or
 * read-only disk) answers 503 `storage_unavailable` with the failure's kind, never a bare 500, and
 * is remembered for /health until an operation succeeds again. The configuration itself is checked
 * at start-up (lib/core/env.ts): a bucket-less `STORAGE_DRIVER=s3` never starts.
 */
export type StorageFailureKind = "unreachable" | "access_denied" | "bucket_missing" | "disk_full" | "server_error" | "error";

export type StorageFailure = {
  kind: StorageFailureKind;
  /** The operation that failed: put, get, head, delete, providerUrl. */
  operation: string;
  /** When the last failure happened (ISO 8601), and since when storage has been failing. */
  at: string;
  since: string;
};

const g = globalThis as unknown as { __gwStorageFailure?: { failure: StorageFailure | null } };
const state = (g.__gwStorageFailure ??= { failure: null });

/**
 * The last run-time failure of the configured storage, or null when its last operation succeeded
 * (or none failed yet). /health reads it.
 */
export const storageFailure = (): StorageFailure | null => state.failure;

/** Tests: forget a failure. */
export const clearStorageFailure = (): void => {
  state.failure = null;
};

const NETWORK_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ENOTFOUND",
  "EAI_AGAIN",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "EPIPE",
  "UND_ERR_CONNECT_TIMEOUT",
  "UND_ERR_SOCKET",
]);

type Failing = {
  code?: string;
  name?: string;
  Code?: string;
  $metadata?: { httpStatusCode?: number };
  cause?: unknown;
};

/** What kind of failure an S3 SDK or file-system error is (read without `instanceof`). */
export function failureKind(err: unknown): StorageFailureKind {
  const e = (err ?? {}) as Failing;
  const code = e.code ?? (e.cause as Failing | undefined)?.code;
  const status = e.$metadata?.httpStatusCode;
  const name = e.name ?? e.Code;
  if ((code && NETWORK_CODES.has(code)) || name === "TimeoutError" || name === "RequestTimeout") return "unreachable";
  if (name === "NoSuchBucket") return "bucket_missing";
  if (status === 401 || status === 403 || name === "InvalidAccessKeyId" || name === "SignatureDoesNotMatch" || name === "AccessDenied")
    return "access_denied";
  if (code === "EACCES" || code === "EPERM" || code === "EROFS") return "access_denied";
  if (code === "ENOSPC" || code === "EDQUOT") return "disk_full";
  if (status !== undefined && status >= 500) return "server_error";
  return "error";
}

const DESCRIBE: Record<StorageFailureKind, string> = {
  unreachable: "the storage server cannot be reached",
  access_denied: "the storage refused the server's credentials or permissions",
  bucket_missing: "the bucket does not exist",
  disk_full: "the disk is full",
  server_error: "the storage server failed",
  error: "the storage failed",
};

function record(operation: string, err: unknown): DomainError {
  const kind = failureKind(err);
  const at = new Date().toISOString();
  const first = state.failure === null;
  state.failure = { kind, operation, at, since: state.failure?.since ?? at };
  // Once when storage starts failing, then at debug level: an outage must not flood the log.
  (first ? log.error : log.debug)("file storage is failing", { operation, failure: kind, error: err });
  return new DomainError(
    "storage_unavailable",
    `File storage is unavailable: ${DESCRIBE[kind]}. Try again later`,
    { failure: kind },
    { "Retry-After": "5" },
  );
}

function succeeded(): void {
  if (state.failure === null) return;
  log.info("file storage works again", { failedSince: state.failure.since });
  state.failure = null;
}

/**
 * Errors that say the request was wrong, not that storage failed: a name too long for the disk
 * (ENAMETOOLONG) or for S3 (KeyTooLongError), or one the server refuses (MinIO). They answer as
 * the caller's fault and never count against the storage's health. S3's generic `InvalidArgument`
 * is not one of them: it also comes from a server's own settings (encryption, storage class).
 */
export function isCallerFault(err: unknown): boolean {
  const e = (err ?? {}) as Failing;
  const name = e.name ?? e.Code;
  return e.code === "ENAMETOOLONG" || name === "KeyTooLongError" || name === "XMinioInvalidObjectName";
}

const invalidKey = () =>
  new DomainError("invalid_params", "Not a valid file name", { issues: [{ path: ["key"], message: "Not a valid file name" }] });

/**
 * The storage with every operation watched: an answer (including "no such object" and 416) counts
 * as working; any other error is recorded and becomes 503 `storage_unavailable`. A key outside the
 * rule (./keys.ts) never reaches the driver, and a driver error that is the caller's fault is not
 * recorded: a read of such a name finds nothing, a delete has nothing to delete, a write is 400.
 */
export function watched(storage: ObjectStorage): ObjectStorage {
  const wrap =
    <A extends [string, ...unknown[]], R>(operation: string, fn: (...args: A) => Promise<R>, callerFault: () => R | never) =>
    async (...args: A): Promise<R> => {
      if (!isValidKey(args[0])) return callerFault();
      try {
        const result = await fn(...args);
        succeeded();
        return result;
      } catch (err) {
        if (isRangeNotSatisfiable(err) || isDomainError(err)) {
          succeeded();
          throw err;
        }
        if (isCallerFault(err)) return callerFault();
        throw record(operation, err);
      }
    };
  const none = () => null;
  const refuse = (): never => {
    throw invalidKey();
  };
  return {
    driver: storage.driver,
    bucket: storage.bucket,
    spoolDir: storage.spoolDir,
    put: wrap("put", storage.put.bind(storage), refuse),
    get: wrap("get", storage.get.bind(storage), none),
    head: wrap("head", storage.head.bind(storage), none),
    delete: wrap("delete", storage.delete.bind(storage), () => undefined),
    publicUrl: (key) => storage.publicUrl(key),
    keyOf: (url) => storage.keyOf(url),
    providerUrl: wrap("providerUrl", storage.providerUrl.bind(storage), refuse),
  };
}
