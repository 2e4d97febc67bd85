import { readdir } from "node:fs/promises";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import { getDb } from "@/db/client";
import { assets, uploads } from "@/db/schema";
import { uploadResult } from "@/lib/http/contracts/uploads";
import { resetEnv } from "@/lib/core/env";
import { currentStorage, setStorage, storageFailure } from "@/lib/storage";
import { clearStorageFailure } from "@/lib/storage/failures";
import { GET as getFile } from "@/app/files/[...key]/route";
import { createActor } from "@/test/factories";
import { call } from "@/test/http";
import * as media from "@/test/media";
import { startS3Server, type S3Server } from "@/test/servers/s3";
import { POST } from "./route";

const MiB = 1024 * 1024;

async function upload(key: string, file: Uint8Array, options: Parameters<typeof media.multipart>[1] = {}) {
  const { body, contentType } = media.multipart(file, options);
  return call(POST, "/me/uploads", { key, body, headers: { "content-type": contentType } });
}

/** Fetches a public URL of the local driver through the file route. */
async function fetchUrl(url: string) {
  const path = new URL(url).pathname;
  const key = path.replace(/^\/files\//, "").split("/");
  return call(getFile, path, { params: { key } });
}

afterEach(() => {
  setStorage(undefined);
  delete process.env.STORAGE_DRIVER;
  resetEnv();
});

describe("success", () => {
  test.each([
    ["image/png", "png", () => media.image("png")],
    ["image/jpeg", "jpg", () => media.image("jpeg")],
    ["image/webp", "webp", () => media.image("webp")],
    ["image/gif", "gif", () => media.image("gif")],
    ["image/avif", "avif", () => media.image("avif")],
    ["image/heic", "heic", async () => media.heic()],
    ["video/mp4", "mp4", async () => media.mp4()],
  ])("%s is accepted by its bytes, stored, recorded and served", async (type, ext, make) => {
    const actor = await createActor();
    const bytes = await make();
    const res = await upload(actor.key, bytes, { filename: `input.${ext}`, contentType: type });
    expect(res.status).toBe(201);
    expect(uploadResult.parse(res.body)).toEqual({
      assetId: expect.any(String),
      url: expect.stringMatching(new RegExp(`^http://localhost:3000/files/u/[0-9a-f]{2}/[0-9a-f-]{36}\\.${ext}$`)),
      contentType: type,
      sizeBytes: bytes.length,
    });
    expect(res.headers.get("x-request-id")).toBeTruthy();

    const db = await getDb();
    const [asset] = await db.select().from(assets).where(eq(assets.id, res.body.assetId));
    expect(asset).toMatchObject({
      userId: actor.user.id,
      kind: "upload",
      status: "stored",
      contentType: type,
      sizeBytes: bytes.length,
      s3Bucket: "local",
    });
    const [row] = await db.select().from(uploads).where(eq(uploads.assetId, res.body.assetId));
    expect(row).toMatchObject({
      userId: actor.user.id,
      filename: `input.${ext}`,
      mimeType: type,
      sizeBytes: bytes.length,
      expiresAt: null,
    });

    const served = await fetchUrl(res.body.url);
    expect(served.status).toBe(200);
    expect(served.headers.get("content-type")).toBe(type);
    expect(Buffer.from(await served.response.arrayBuffer()).equals(Buffer.from(bytes))).toBe(true);
  });

  test("the type comes from the bytes when the part declares nothing, a generic type, or text/plain", async () => {
    const actor = await createActor();
    for (const contentType of [null, "application/octet-stream", "text/plain"]) {
      const res = await upload(actor.key, await media.image("png"), { filename: "no-extension", contentType });
      expect({ contentType, status: res.status, type: res.body.contentType }).toEqual({ contentType, status: 201, type: "image/png" });
    }
  });

  test("a file of exactly MAX_UPLOAD_BYTES is accepted", async () => {
    const actor = await createActor();
    const bytes = media.wav(10 * MiB - 44);
    expect(bytes.length).toBe(10 * MiB);
    const res = await upload(actor.key, bytes, { contentType: "audio/wav" });
    expect(res.status).toBe(201);
    expect(res.body.sizeBytes).toBe(10 * MiB);
  });

  test("other form fields around the file are ignored", async () => {
    const actor = await createActor();
    const res = await upload(actor.key, media.mp3(), { contentType: "audio/mpeg", extraFields: { purpose: "voice" } });
    expect(res.status).toBe(201);
    expect(res.body.contentType).toBe("audio/mpeg");
  });

  test("a session works as well as a key", async () => {
    const actor = await createActor();
    const { body, contentType } = media.multipart(media.mp4(), { contentType: "video/mp4" });
    const res = await call(POST, "/me/uploads", { session: actor.session, body, headers: { "content-type": contentType } });
    expect(res.status).toBe(201);
  });
});

const envelope = (error: string) => ({ success: false, error, message: expect.any(String) });

describe("validation", () => {
  test.each([
    [
      "an EXE named .png and sent as image/png",
      415,
      "unsupported_media_type",
      () => media.exe(),
      { filename: "photo.png", contentType: "image/png" },
    ],
    ["an EXE sent as a generic binary", 415, "unsupported_media_type", () => media.exe(), { filename: "x.bin" }],
    ["PNG bytes declared as image/jpeg", 415, "unsupported_media_type", () => media.image("png"), { contentType: "image/jpeg" }],
    ["MP4 bytes declared as audio/mpeg", 415, "unsupported_media_type", () => media.mp4(), { contentType: "audio/mpeg" }],
    ["plain text", 415, "unsupported_media_type", () => Buffer.from("just some words, no magic number"), { contentType: "text/plain" }],
    ["WebM sent without a type (video WebM is not accepted)", 415, "unsupported_media_type", () => media.webm(), { contentType: null }],
    ["an empty file", 400, "invalid_body", () => Buffer.alloc(0), { contentType: "image/png" }],
    [
      "bytes that are no PNG at all, declared image/png",
      400,
      "invalid_body",
      () => Buffer.from("garbage garbage garbage"),
      { contentType: "image/png" },
    ],
    [
      "a PNG signature with a corrupt header",
      400,
      "invalid_body",
      () => Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.from("IHDRxxxx-not-a-real-header")]),
      { contentType: "image/png" },
    ],
  ] as const)("%s → %i %s", async (_, status, error, make, options) => {
    const actor = await createActor();
    const res = await upload(actor.key, await make(), options);
    expect(res.status).toBe(status);
    expect(res.body).toMatchObject(envelope(error));
    const db = await getDb();
    expect(await db.select().from(assets).where(eq(assets.userId, actor.user.id))).toEqual([]);
  });

  test("no `file` field → 400 with an issue on file", async () => {
    const actor = await createActor();
    const res = await upload(actor.key, await media.image("png"), { field: "image" });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ ...envelope("invalid_body"), issues: [{ path: ["file"], message: "Required" }] });
  });

  test("a JSON body is not an upload on the gateway surface → 415", async () => {
    const actor = await createActor();
    const res = await call(POST, "/me/uploads", { key: actor.key, body: { data: "aGk=" } });
    expect(res.status).toBe(415);
    expect(res.body).toMatchObject(envelope("unsupported_media_type"));
  });

  test("MAX_UPLOAD_BYTES + 1 → 413 asset_too_large", async () => {
    const actor = await createActor();
    const res = await upload(actor.key, media.wav(10 * MiB - 44 + 1), { contentType: "audio/wav" });
    expect(res.status).toBe(413);
    expect(res.body).toMatchObject(envelope("asset_too_large"));
  });

  test("a huge streamed body is cut off just past the limit: memory does not grow with the body", async () => {
    const actor = await createActor();
    const total = 256 * MiB;
    const { body: envelopeHead, contentType } = media.multipart(media.wav(16), { contentType: "audio/wav" });
    const head = envelopeHead.subarray(0, envelopeHead.indexOf("\r\n--", 10)); // part headers + file start, no closing boundary
    let pulled = 0;
    const zeros = new Uint8Array(256 * 1024);
    const stream = new ReadableStream<Uint8Array>(
      {
        pull(controller) {
          if (pulled >= total) return controller.close();
          const chunk = pulled === 0 ? new Uint8Array(head) : zeros;
          pulled += chunk.byteLength;
          controller.enqueue(chunk);
        },
      },
      { highWaterMark: 0 },
    );
    const before = process.memoryUsage().arrayBuffers;
    const res = await call(POST, "/me/uploads", { key: actor.key, body: stream, headers: { "content-type": contentType } });
    expect(res.status).toBe(413);
    expect(res.body).toMatchObject(envelope("asset_too_large"));
    // The handler stopped reading right after the limit (10 MiB of file + the 1 MiB envelope allowance).
    expect(pulled).toBeLessThan(12 * MiB);
    expect(process.memoryUsage().arrayBuffers - before).toBeLessThan(64 * MiB);
    // And left no spooled file behind.
    const spool = currentStorage()!.spoolDir;
    expect((await readdir(spool)).filter((f) => f.endsWith(".part"))).toEqual([]);
  });

  test("a declared Content-Length over the limit is refused without reading the body", async () => {
    const actor = await createActor();
    let pulled = 0;
    const stream = new ReadableStream<Uint8Array>(
      {
        pull(controller) {
          pulled += 1;
          controller.enqueue(new Uint8Array(1024));
        },
      },
      { highWaterMark: 0 },
    );
    const res = await call(POST, "/me/uploads", {
      key: actor.key,
      body: stream,
      headers: { "content-type": "multipart/form-data; boundary=x", "content-length": String(5 * 1024 * MiB) },
    });
    expect(res.status).toBe(413);
    expect(res.body).toMatchObject(envelope("asset_too_large"));
    expect(pulled).toBe(0);
  });

  test("storage disabled → 503 asset_storage_disabled before the body is read", async () => {
    process.env.STORAGE_DRIVER = "disabled";
    resetEnv();
    setStorage(undefined);
    const actor = await createActor();
    const res = await upload(actor.key, await media.image("png"));
    expect(res.status).toBe(503);
    expect(res.body).toEqual({ ...envelope("asset_storage_disabled"), message: expect.stringContaining("STORAGE_DRIVER=disabled") });
  });
});

describe("storage failing at run time", () => {
  let s3: S3Server;
  // s3rver takes any signature: this one answers as S3 does to a wrong secret (403 SignatureDoesNotMatch).
  // On a real server (TEST_S3_ENDPOINT) the wrong secret goes to the server itself.
  let refusing: http.Server;
  let refusingUrl: string;
  beforeAll(async () => {
    s3 = await startS3Server();
    refusing = http.createServer((req, res) => {
      req.resume();
      res.writeHead(403, { "content-type": "application/xml" });
      res.end(
        '<?xml version="1.0" encoding="UTF-8"?><Error><Code>SignatureDoesNotMatch</Code><Message>The request signature we calculated does not match the signature you provided.</Message></Error>',
      );
    });
    await new Promise<void>((resolve) => refusing.listen(0, "127.0.0.1", resolve));
    refusingUrl = `http://127.0.0.1:${(refusing.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await s3.close();
    refusing.closeAllConnections();
    await new Promise((resolve) => refusing.close(resolve));
  });
  afterEach(() => {
    for (const name of Object.keys(s3.env)) delete process.env[name];
    clearStorageFailure();
  });

  /** The server's storage as configured (watched for failures), on this S3 with `overrides`. */
  const configure = (overrides: Record<string, string>) => {
    Object.assign(process.env, s3.env, overrides);
    resetEnv();
    setStorage(undefined);
  };

  test.each([
    // A server that checks signatures refuses the wrong secret itself; s3rver checks none, so a stand-in answers for it.
    [
      "a wrong S3 secret",
      () => ({ ...(s3.traits.verifiesSignatures ? {} : { S3_ENDPOINT: refusingUrl }), S3_SECRET_ACCESS_KEY: "not-the-secret" }),
      "access_denied",
      "refused the server's credentials",
    ],
    ["a bucket that does not exist", () => ({ S3_BUCKET: "gone" }), "bucket_missing", "bucket does not exist"],
    ["S3 unreachable", () => ({ S3_ENDPOINT: "http://127.0.0.1:9" }), "unreachable", "cannot be reached"],
  ] as const)(
    "%s → 503 storage_unavailable with the failure and Retry-After, nothing recorded; storageFailure() says so",
    async (_, overrides, failure, words) => {
      configure(overrides());
      const actor = await createActor();
      const res = await upload(actor.key, await media.image("png"));
      expect(res.status).toBe(503);
      expect(res.headers.get("retry-after")).toBe("5");
      expect(res.body).toEqual({ success: false, error: "storage_unavailable", message: expect.stringContaining(words), failure });
      const db = await getDb();
      expect(await db.select().from(assets).where(eq(assets.userId, actor.user.id))).toEqual([]);
      expect(storageFailure()).toEqual({ kind: failure, operation: "put", at: expect.any(String), since: expect.any(String) });
    },
  );

  test("once storage works again, the next upload is stored and the failure is forgotten", async () => {
    configure({ S3_ENDPOINT: refusingUrl });
    const actor = await createActor();
    expect((await upload(actor.key, await media.image("png"))).status).toBe(503);
    expect(storageFailure()?.kind).toBe("access_denied");
    configure({});
    const res = await upload(actor.key, await media.image("png"));
    expect(res.status).toBe(201);
    expect(storageFailure()).toBeNull();
  });
});

describe("auth", () => {
  test("no credentials → 401, and nothing is stored", async () => {
    const { body, contentType } = media.multipart(await media.image("png"));
    const res = await call(POST, "/me/uploads", { body, headers: { "content-type": contentType } });
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject(envelope("unauthorized"));
  });
});
