import { eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import { getDb } from "@/db/client";
import { assets, uploads } from "@/db/schema";
import { uploadedFile } from "@/lib/http/contracts/uploads";
import { setStorage } from "@/lib/storage";
import { createActor } from "@/test/factories";
import { call } from "@/test/http";
import * as media from "@/test/media";
import { startS3Server, type S3Server } from "@/test/servers/s3";
import { POST } from "./route";

const MiB = 1024 * 1024;

let s3: S3Server;
beforeAll(async () => {
  s3 = await startS3Server();
});
afterAll(async () => {
  await s3.close();
});
afterEach(() => setStorage(undefined));

function multipartUpload(key: string, file: Uint8Array, options: Parameters<typeof media.multipart>[1] = {}) {
  const { body, contentType } = media.multipart(file, options);
  return call(POST, "/api/v1/upload", { key, body, headers: { "content-type": contentType } });
}

// The spec's audio list: each declared type, with bytes of the format it names.
const AUDIO: [declared: string, canonical: string, bytes: () => Buffer][] = [
  ["audio/mpeg", "audio/mpeg", media.mp3],
  ["audio/mp3", "audio/mpeg", media.mp3],
  ["audio/wav", "audio/wav", () => media.wav()],
  ["audio/wave", "audio/wav", () => media.wav()],
  ["audio/x-wav", "audio/wav", () => media.wav()],
  ["audio/webm", "audio/webm", media.webm],
  ["audio/mp4", "audio/mp4", media.m4a],
  ["audio/ogg", "audio/ogg", () => media.ogg("opus")],
  ["audio/flac", "audio/flac", media.flac],
];

describe("success", () => {
  test.each(AUDIO)("multipart %s is accepted by its bytes as %s", async (declared, canonical, bytes) => {
    const actor = await createActor();
    const file = bytes();
    const res = await multipartUpload(actor.key, file, { filename: "voice", contentType: declared });
    expect(res.status).toBe(200);
    expect(uploadedFile.parse(res.body)).toEqual({
      file_id: expect.any(String),
      url: expect.stringMatching(/^http:\/\/localhost:3000\/files\/u\//),
      provider_url: res.body.url,
      mime_type: canonical,
      size_bytes: file.length,
      expires_at: null,
    });
    const db = await getDb();
    const [row] = await db.select().from(uploads).where(eq(uploads.id, res.body.file_id));
    expect(row).toMatchObject({ userId: actor.user.id, assetId: res.body.file_id, mimeType: canonical, sizeBytes: file.length });
  });

  test.each(AUDIO)("JSON base64 with mime_type %s is accepted as %s", async (declared, canonical, bytes) => {
    const actor = await createActor();
    const file = bytes();
    const res = await call(POST, "/api/v1/upload", {
      key: actor.key,
      body: { data: file.toString("base64"), mime_type: declared, filename: "voice.bin" },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ mime_type: canonical, size_bytes: file.length });
  });

  test("a JSON data URL carries its own type; a PNG image uploads as image/png", async () => {
    const actor = await createActor();
    const png = await media.image("png", 16);
    const res = await call(POST, "/api/v1/upload", {
      key: actor.key,
      body: { data: `data:image/png;base64,${png.toString("base64")}`, filename: "C:\\fakepath\\cover.png" },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ mime_type: "image/png", size_bytes: png.length });
    const db = await getDb();
    const [row] = await db.select().from(uploads).where(eq(uploads.id, res.body.file_id));
    expect(row!.filename).toBe("cover.png");
  });

  test("URL-safe base64 and line-wrapped base64 decode to the same bytes", async () => {
    const actor = await createActor();
    const jpeg = await media.image("jpeg", 32, 3);
    const wrapped = jpeg.toString("base64").replace(/(.{76})/g, "$1\n");
    const urlSafe = jpeg.toString("base64url");
    for (const data of [wrapped, urlSafe]) {
      const res = await call(POST, "/api/v1/upload", { key: actor.key, body: { data, mime_type: "image/jpeg" } });
      expect(res.body).toMatchObject({ mime_type: "image/jpeg", size_bytes: jpeg.length });
    }
  });

  test("on S3, url is the display URL (the bucket's, or S3_PUBLIC_URL) and provider_url a signed URL that expires", async () => {
    setStorage(s3.storage());
    const actor = await createActor();
    const mp3 = media.mp3();
    const res = await multipartUpload(actor.key, mp3, { contentType: "audio/mpeg" });
    expect(res.status).toBe(200);
    expect(res.body.url).toBe(`${s3.publicBase}/u/${res.body.file_id.slice(0, 2)}/${res.body.file_id}.mp3`);
    expect((await fetch(res.body.url)).status).toBe(200);
    expect(res.body.provider_url).toContain("X-Amz-Signature=");
    const expires = Date.parse(res.body.expires_at);
    expect(expires).toBeGreaterThan(Date.now() + 23 * 3600_000);
    expect(expires).toBeLessThanOrEqual(Date.now() + 24 * 3600_000);
    const fetched = await fetch(res.body.provider_url);
    expect(fetched.status).toBe(200);
    expect(Buffer.from(await fetched.arrayBuffer()).equals(mp3)).toBe(true);
    const db = await getDb();
    const [asset] = await db.select().from(assets).where(eq(assets.id, res.body.file_id));
    expect(asset).toMatchObject({ s3Bucket: s3.bucket, s3Key: `u/${res.body.file_id.slice(0, 2)}/${res.body.file_id}.mp3` });
    const [row] = await db.select().from(uploads).where(eq(uploads.id, res.body.file_id));
    expect(row!.expiresAt!.toISOString()).toBe(res.body.expires_at);
  });
});

const skillError = (reason: string) => ({
  error: expect.any(String),
  code: "INVALID_PARAMS",
  details: expect.objectContaining({ reason }),
});

describe("validation", () => {
  test("an EXE named .png → 400 (the skill surface's status for a bad file format)", async () => {
    const actor = await createActor();
    const res = await multipartUpload(actor.key, media.exe(), { filename: "photo.png", contentType: "image/png" });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(skillError("unsupported_media_type"));
  });

  test("WAV bytes declared as audio/mpeg → 400", async () => {
    const actor = await createActor();
    const res = await call(POST, "/api/v1/upload", {
      key: actor.key,
      body: { data: media.wav().toString("base64"), mime_type: "audio/mpeg" },
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(skillError("unsupported_media_type"));
  });

  test.each([
    ["invalid base64", { data: "this is *not* base64!", mime_type: "image/png" }, "data"],
    ["plain base64 without mime_type", { data: "aGVsbG8=" }, "mime_type"],
    ["empty data", { data: "", mime_type: "image/png" }, "data"],
  ])("%s → 400 with the field named", async (_, body, field) => {
    const actor = await createActor();
    const res = await call(POST, "/api/v1/upload", { key: actor.key, body });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(skillError("invalid_body"));
    expect(res.body.details.issues.map((i: { path: string[] }) => i.path[0])).toContain(field);
  });

  test("an empty file → 400", async () => {
    const actor = await createActor();
    const res = await call(POST, "/api/v1/upload", { key: actor.key, body: { data: "data:audio/wav;base64," } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(skillError("invalid_body"));
  });

  test("malformed JSON → 400 invalid_json", async () => {
    const actor = await createActor();
    const res = await call(POST, "/api/v1/upload", { key: actor.key, body: "{not json", headers: { "content-type": "application/json" } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(skillError("invalid_json"));
  });

  test("a body that is neither multipart nor JSON → 400", async () => {
    const actor = await createActor();
    const res = await call(POST, "/api/v1/upload", { key: actor.key, body: "raw", headers: { "content-type": "image/png" } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(skillError("unsupported_media_type"));
  });

  test("10 MiB + 1 byte as JSON base64 → 413; as multipart → 413", async () => {
    const actor = await createActor();
    const file = media.wav(10 * MiB - 44 + 1);
    const json = await call(POST, "/api/v1/upload", { key: actor.key, body: { data: file.toString("base64"), mime_type: "audio/wav" } });
    expect(json.status).toBe(413);
    expect(json.body).toEqual(skillError("asset_too_large"));
    const multi = await multipartUpload(actor.key, file, { contentType: "audio/wav" });
    expect(multi.status).toBe(413);
    expect(multi.body).toEqual(skillError("asset_too_large"));
  });

  test("exactly 10 MiB as a JSON data URL is accepted", async () => {
    const actor = await createActor();
    const file = media.wav(10 * MiB - 44);
    const res = await call(POST, "/api/v1/upload", { key: actor.key, body: { data: `data:audio/wav;base64,${file.toString("base64")}` } });
    expect(res.status).toBe(200);
    expect(res.body.size_bytes).toBe(10 * MiB);
  });
});

describe("auth", () => {
  test("no key → 401 UNAUTHORIZED", async () => {
    const res = await call(POST, "/api/v1/upload", { body: { data: "aGk=", mime_type: "image/png" } });
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ code: "UNAUTHORIZED" });
  });
});
