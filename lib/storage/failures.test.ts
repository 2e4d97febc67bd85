import { randomUUID } from "node:crypto";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { httpStatusOf } from "@/lib/http/errors";
import { eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import { getDb } from "@/db/client";
import { assets } from "@/db/schema";
import { rehostResult } from "@/lib/assets/rehost";
import { isDomainError } from "@/lib/core/errors";
import { createUser } from "@/test/factories";
import * as media from "@/test/media";
import { startS3Server, type S3Server } from "@/test/servers/s3";
import { clearStorageFailure, failureKind, isCallerFault, storageFailure, watched } from "./failures";
import { localStorage } from "./local";
import { RangeNotSatisfiable, type ObjectStorage } from "./types";

let s3: S3Server;
beforeAll(async () => {
  s3 = await startS3Server();
});
afterAll(async () => {
  await s3.close();
});
afterEach(() => clearStorageFailure());

/** What an operation on `storage` threw. */
async function thrown(op: Promise<unknown>): Promise<unknown> {
  try {
    await op;
  } catch (err) {
    return err;
  }
  throw new Error("expected the operation to fail");
}

describe("failureKind", () => {
  test.each([
    ["a refused connection", Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" }), "unreachable"],
    ["an unknown host", Object.assign(new Error("getaddrinfo ENOTFOUND"), { code: "ENOTFOUND" }), "unreachable"],
    ["the SDK's timeout", Object.assign(new Error("timed out"), { name: "TimeoutError" }), "unreachable"],
    [
      "403 SignatureDoesNotMatch",
      Object.assign(new Error("sig"), { name: "SignatureDoesNotMatch", $metadata: { httpStatusCode: 403 } }),
      "access_denied",
    ],
    ["403 with no code", Object.assign(new Error("forbidden"), { $metadata: { httpStatusCode: 403 } }), "access_denied"],
    ["NoSuchBucket", Object.assign(new Error("no bucket"), { name: "NoSuchBucket", $metadata: { httpStatusCode: 404 } }), "bucket_missing"],
    ["503 SlowDown", Object.assign(new Error("slow down"), { name: "SlowDown", $metadata: { httpStatusCode: 503 } }), "server_error"],
    ["a read-only disk", Object.assign(new Error("EROFS"), { code: "EROFS" }), "access_denied"],
    ["a full disk", Object.assign(new Error("ENOSPC"), { code: "ENOSPC" }), "disk_full"],
    ["anything else", new Error("?"), "error"],
  ] as const)("%s → %s", (_, err, kind) => {
    expect(failureKind(err)).toBe(kind);
  });
});

describe("watched storage", () => {
  test("a failing operation becomes 503 storage_unavailable and is remembered; the next success forgets it", async () => {
    const broken = watched(s3.storage({ bucket: "gone" }));
    const err = await thrown(broken.put("any/key", new Uint8Array([1]), { contentType: "application/octet-stream" }));
    expect(isDomainError(err) && { code: err.code, status: httpStatusOf(err), extra: err.extra, headers: err.headers }).toEqual({
      code: "storage_unavailable",
      status: 503,
      extra: { failure: "bucket_missing" },
      headers: { "Retry-After": "5" },
    });
    expect(storageFailure()).toMatchObject({ kind: "bucket_missing", operation: "put" });
    const since = storageFailure()!.since;
    await thrown(broken.get("any/key"));
    expect(storageFailure()).toMatchObject({ kind: "bucket_missing", operation: "get", since });

    // An answer, even "no such object", is storage working.
    expect(await watched(s3.storage()).head("missing/key")).toBeNull();
    expect(storageFailure()).toBeNull();
  });

  test("a range past the end is an answer (416), not a failure", async () => {
    const storage = watched(s3.storage());
    await storage.put("range/one.bin", new Uint8Array([1, 2, 3]), { contentType: "application/octet-stream" });
    const err = await thrown(storage.get("range/one.bin", { start: 10 }));
    expect(err).toBeInstanceOf(RangeNotSatisfiable);
    expect(storageFailure()).toBeNull();
  });
});

describe("the caller's faults are not the storage's", () => {
  test.each([
    ["a name too long for the disk", Object.assign(new Error("ENAMETOOLONG"), { code: "ENAMETOOLONG" }), true],
    ["S3's key too long", Object.assign(new Error("too long"), { name: "KeyTooLongError", $metadata: { httpStatusCode: 400 } }), true],
    [
      "MinIO's invalid object name",
      Object.assign(new Error("bad name"), { name: "XMinioInvalidObjectName", $metadata: { httpStatusCode: 400 } }),
      true,
    ],
    ["a data directory it may not write", Object.assign(new Error("EACCES"), { code: "EACCES" }), false],
    ["a full disk", Object.assign(new Error("ENOSPC"), { code: "ENOSPC" }), false],
    ["a failing disk", Object.assign(new Error("EIO"), { code: "EIO" }), false],
    [
      "a server's own InvalidArgument",
      Object.assign(new Error("sse"), { name: "InvalidArgument", $metadata: { httpStatusCode: 400 } }),
      false,
    ],
    ["a server error", Object.assign(new Error("boom"), { name: "InternalError", $metadata: { httpStatusCode: 500 } }), false],
  ] as const)("%s → caller's fault: %s", (_, err, callers) => {
    expect(isCallerFault(err)).toBe(callers);
  });

  const drivers: [string, () => Promise<ObjectStorage>][] = [
    ["local", async () => localStorage({ root: await mkdtemp(path.join(tmpdir(), "gw-names-")), baseUrl: "http://app.test" })],
    ["s3", async () => s3.storage()],
  ];
  const NAMES = [
    ["a 300-character name", "a".repeat(300)],
    ["a 300-character file name", `u/ab/${"a".repeat(300)}.png`],
    ["a 600-character key", `u/${"ab/".repeat(200)}x.png`],
    ["a name with a space", "u/ab/a b.png"],
    ["a hidden file", "u/ab/.x.png"],
  ] as const;

  describe.each(drivers)("%s driver", (_driver, make) => {
    test.each(NAMES)("%s: nothing to read or delete, a write is 400, and storage is not failing", async (_, key) => {
      const storage = watched(await make());
      expect(await storage.get(key)).toBeNull();
      expect(await storage.head(key)).toBeNull();
      await expect(storage.delete(key)).resolves.toBeUndefined();
      const err = await thrown(storage.put(key, new Uint8Array([1]), { contentType: "image/png" }));
      expect(isDomainError(err) && { code: err.code, status: httpStatusOf(err) }).toEqual({ code: "invalid_params", status: 400 });
      expect(storageFailure()).toBeNull();
    });

    test("a long name the rule allows is stored, read and deleted", async () => {
      const storage = watched(await make());
      const key = `u/ab/${"b".repeat(200)}.png`;
      await storage.put(key, new Uint8Array([1, 2]), { contentType: "image/png" });
      expect(await storage.head(key)).toMatchObject({ totalBytes: 2 });
      await storage.delete(key);
      expect(storageFailure()).toBeNull();
    });
  });
});

describe("a generation's files while storage fails", () => {
  test("the result keeps the provider's links, each asset is recorded failed with the reason, and /health's accessor reports it", async () => {
    const user = await createUser();
    const generationId = randomUUID();
    const png = await media.image("png", 16);
    const link = `data:image/png;base64,${Buffer.from(png).toString("base64")}`;
    const storage: ObjectStorage = watched(s3.storage({ endpoint: "http://127.0.0.1:9" }));
    const res = await rehostResult(await getDb(), { images: [{ url: link }] }, { userId: user.id, generationId, storage });
    expect(res.output).toEqual({ images: [{ url: link }] });
    expect(res.counts).toEqual({ found: 1, uploaded: 0, failed: 1 });
    const rows = await (await getDb()).select().from(assets).where(eq(assets.generationId, generationId));
    expect(rows).toMatchObject([{ status: "failed", error: expect.stringContaining("File storage is unavailable") }]);
    expect(storageFailure()).toMatchObject({ kind: "unreachable", operation: "put" });
  });
});
