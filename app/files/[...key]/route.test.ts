import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import { currentStorage, setStorage, storageFailure, type ObjectStorage } from "@/lib/storage";
import { clearStorageFailure, watched } from "@/lib/storage/failures";
import { call } from "@/test/http";
import { startS3Server, type S3Server } from "@/test/servers/s3";
import { GET, HEAD } from "./route";

let s3: S3Server;
beforeAll(async () => {
  s3 = await startS3Server();
});
afterAll(async () => {
  await s3.close();
});
afterEach(() => {
  setStorage(undefined);
  clearStorageFailure();
});

const BYTES = Buffer.from("0123456789abcdefghij");
let n = 0;

async function stored(storage: ObjectStorage = currentStorage()!, ext = "png", bytes: Buffer = BYTES) {
  const key = `r/ab/file-${n++}.${ext}`;
  await storage.put(key, bytes, { contentType: ext === "bin" ? "application/octet-stream" : "image/png" });
  return key;
}

const get = (key: string, headers: Record<string, string> = {}, method: "GET" | "HEAD" = "GET") =>
  call(method === "GET" ? GET : HEAD, `/files/${key}`, { params: { key: key.split("/") }, headers, method });

describe("success", () => {
  test("serves the bytes with type, length, long immutable caching and safe headers", async () => {
    const key = await stored();
    const res = await get(key);
    expect(res.status).toBe(200);
    expect(res.text).toBe(BYTES.toString());
    expect(Object.fromEntries(res.headers)).toMatchObject({
      "content-type": "image/png",
      "content-length": "20",
      "accept-ranges": "bytes",
      "cache-control": "public, max-age=31536000, immutable",
      "x-content-type-options": "nosniff",
      "content-security-policy": expect.stringContaining("sandbox"),
      "access-control-allow-origin": "*",
      etag: expect.stringMatching(/^".+"$/),
      "last-modified": expect.any(String),
      "x-request-id": expect.any(String),
    });
    expect(res.headers.get("content-disposition")).toBeNull();
  });

  test.each([
    ["bytes=0-3", "0123", "bytes 0-3/20"],
    ["bytes=10-", "abcdefghij", "bytes 10-19/20"],
    ["bytes=-5", "fghij", "bytes 15-19/20"],
    ["bytes=18-99", "ij", "bytes 18-19/20"],
  ])("Range %s → 206 %s", async (range, body, contentRange) => {
    const res = await get(await stored(), { range });
    expect(res.status).toBe(206);
    expect(res.text).toBe(body);
    expect(res.headers.get("content-range")).toBe(contentRange);
    expect(res.headers.get("content-length")).toBe(String(body.length));
  });

  test("a range past the end → 416 with the size; several ranges → the whole file", async () => {
    const key = await stored();
    const past = await get(key, { range: "bytes=20-" });
    expect(past.status).toBe(416);
    expect(past.headers.get("content-range")).toBe("bytes */20");
    const multi = await get(key, { range: "bytes=0-1,5-6" });
    expect(multi.status).toBe(200);
    expect(multi.text).toBe(BYTES.toString());
  });

  test("HEAD answers the headers without a body", async () => {
    const res = await get(await stored(), {}, "HEAD");
    expect(res.status).toBe(200);
    expect(res.text).toBe("");
    expect(res.headers.get("content-length")).toBe("20");
  });

  test("If-None-Match with the ETag → 304; If-Range with another ETag → the whole file", async () => {
    const key = await stored();
    const etag = (await get(key)).headers.get("etag")!;
    const cached = await get(key, { "if-none-match": etag });
    expect(cached.status).toBe(304);
    expect(cached.text).toBe("");
    expect((await get(key, { range: "bytes=0-1", "if-range": etag })).status).toBe(206);
    const stale = await get(key, { range: "bytes=0-1", "if-range": '"other"' });
    expect(stale.status).toBe(200);
    expect(stale.text).toBe(BYTES.toString());
  });

  test("opaque binaries download as attachments", async () => {
    const res = await get(await stored(undefined, "bin"));
    expect(res.headers.get("content-type")).toBe("application/octet-stream");
    expect(res.headers.get("content-disposition")).toBe("attachment");
  });

  test("the same route serves from S3 storage", async () => {
    const storage = s3.storage();
    setStorage(storage);
    const key = await stored(storage);
    const res = await get(key, { range: "bytes=2-4" });
    expect(res.status).toBe(206);
    expect(res.text).toBe("234");
    expect(res.headers.get("content-range")).toBe("bytes 2-4/20");
  });
});

describe("not found", () => {
  test.each([
    ["a missing key", "r/ab/missing.png"],
    ["a path climbing out of the store", "../../etc/passwd"],
    ["the spool directory", ".tmp/x.part"],
  ])("%s → 404 in the gateway envelope, not cached", async (_, key) => {
    const res = await get(key);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ success: false, error: "not_found", message: "File not found" });
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(res.headers.get("x-request-id")).toBeTruthy();
  });

  test.each([
    ["local", () => setStorage(undefined)],
    ["s3", () => setStorage(watched(s3.storage()))],
  ])("a name no storage can hold is the caller's 404, never storage failing (%s)", async (_, install) => {
    install();
    await stored(currentStorage()!); // r/ab/ exists: a name inside it reaches the file system's own limit
    for (const key of ["a".repeat(300), `r/ab/${"a".repeat(300)}.png`, `r/${"ab/".repeat(200)}x.png`, "r/ab/a b.png"]) {
      const res = await get(key);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ success: false, error: "not_found", message: "File not found" });
      expect((await get(key, {}, "HEAD")).status).toBe(404);
      expect((await get(key, { range: "bytes=0-1", "if-range": '"x"' })).status).toBe(404);
    }
    // What /health reads: a file operation's failure (lib/storage/failures.ts).
    expect(storageFailure()).toBeNull();
  });

  test("a deleted object is 404", async () => {
    const key = await stored();
    expect((await get(key)).status).toBe(200);
    await currentStorage()!.delete(key);
    expect((await get(key)).status).toBe(404);
  });

  test("storage disabled → 404", async () => {
    const key = await stored();
    setStorage(null);
    expect((await get(key)).status).toBe(404);
  });
});
