import path from "node:path";
import { env, type Env } from "@/lib/core/env";
import { DomainError } from "@/lib/core/errors";
import { log } from "@/lib/core/logger";
import { watched } from "./failures";
import { localStorage } from "./local";
import { s3Storage } from "./s3";
import type { ObjectStorage } from "./types";

export type { ObjectStorage, ObjectRead, ObjectInfo, ObjectSource, RangeRequest, ByteRange } from "./types";
export { RangeNotSatisfiable } from "./types";
export { storageFailure, type StorageFailure, type StorageFailureKind } from "./failures";

export type StorageState = { driver: "local" | "s3"; reason?: undefined } | { driver: "disabled"; reason: string };

/**
 * Which storage the configuration selects:
 * - `STORAGE_DRIVER=local`, or unset without S3_BUCKET: local disk under DATA_DIR/assets (the
 *   embedded default; it works in production too, which is how the Quick start runs);
 * - `STORAGE_DRIVER=s3`, or unset with S3_BUCKET: S3;
 * - `STORAGE_DRIVER=disabled`: storage is off. Uploads answer 503 `asset_storage_disabled`, and
 *   generation results keep their provider URLs. (`s3` without S3_BUCKET stops start-up: lib/env.ts.)
 * Storage that fails at run time answers 503 `storage_unavailable` and shows in `storageFailure()`
 * (./failures.ts).
 */
export function storageState(e: Env = env()): StorageState {
  const driver = e.STORAGE_DRIVER ?? (e.S3_BUCKET ? "s3" : "local");
  if (driver === "disabled") return { driver, reason: "File storage is disabled on this server (STORAGE_DRIVER=disabled)" };
  if (driver === "s3" && !e.S3_BUCKET) {
    return { driver: "disabled", reason: "File storage is not configured: STORAGE_DRIVER=s3 needs S3_BUCKET" };
  }
  return { driver };
}

function build(e: Env): ObjectStorage | null {
  const state = storageState(e);
  if (state.driver === "disabled") {
    log.warn("file storage disabled", { reason: state.reason });
    return null;
  }
  if (state.driver === "local") {
    return watched(localStorage({ root: path.resolve(e.DATA_DIR, "assets"), baseUrl: e.APP_URL }));
  }
  return watched(
    s3Storage({
      bucket: e.S3_BUCKET!,
      region: e.S3_REGION,
      endpoint: e.S3_ENDPOINT,
      forcePathStyle: e.S3_FORCE_PATH_STYLE,
      accessKeyId: e.S3_ACCESS_KEY_ID,
      secretAccessKey: e.S3_SECRET_ACCESS_KEY,
      publicUrl: e.S3_PUBLIC_URL,
    }),
  );
}

const globalForStorage = globalThis as unknown as { __gwStorage?: { storage: ObjectStorage | null } };

/** The configured storage, or null when disabled. Built once per process. */
export function currentStorage(): ObjectStorage | null {
  globalForStorage.__gwStorage ??= { storage: build(env()) };
  return globalForStorage.__gwStorage.storage;
}

/** The configured storage; 503 asset_storage_disabled when there is none. */
export function getStorage(): ObjectStorage {
  const storage = currentStorage();
  if (!storage) {
    const state = storageState();
    throw new DomainError("asset_storage_disabled", state.reason ?? "File storage is not configured");
  }
  return storage;
}

/** Tests install a storage (or `null` for disabled); `undefined` goes back to the configuration. */
export function setStorage(storage: ObjectStorage | null | undefined): void {
  globalForStorage.__gwStorage = storage === undefined ? undefined : { storage };
}
