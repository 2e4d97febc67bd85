import { and, eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import { getDb } from "@/db/client";
import { assets, uploads } from "@/db/schema";
import { setStorage, storageFailure } from "@/lib/storage";
import { clearStorageFailure, watched } from "@/lib/storage/failures";
import { createActor } from "@/test/factories";
import { call } from "@/test/http";
import * as media from "@/test/media";
import { startS3Server, type S3Server } from "@/test/servers/s3";
import { POST as PROXY_POST } from "../../../../api/fal/proxy/route";
import { GET as FILE_GET } from "../../../../files/[...key]/route";
import { PUT } from "./route";

/**
 * The upload_url of fal's storage protocol (lib/fal-protocol/storage.ts), on both drivers: the
 * local disk the test file's DATA_DIR holds, and S3 (s3rver, or the real server TEST_S3_* names).
 */
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

const drivers: [string, () => void][] = [
  ["local", () => setStorage(undefined)],
  ["s3", () => setStorage(watched(s3.storage()))],
];

/** `fal.storage.upload` step one, through the proxy as the stock client sends it. */
async function initiate(key: string, contentType: string) {
  const res = await call(PROXY_POST, "/api/fal/proxy", {
    method: "POST",
    body: { content_type: contentType, file_name: "in.png" },
    headers: {
      "x-fal-target-url": "https://rest.fal.ai/storage/upload/initiate?storage_type=fal-cdn-v3",
      authorization: `Key ${key}`,
      "content-type": "application/json",
    },
  });
  expect(res.status).toBe(200);
  return res.body as { upload_url: string; file_url: string };
}

const put = (uploadUrl: string, bytes: Uint8Array, contentType: string) => {
  const path = new URL(uploadUrl).pathname;
  return call(PUT, path, {
    method: "PUT",
    body: bytes,
    headers: { "content-type": contentType },
    params: { token: path.split("/").pop()! },
  });
};

/** The bytes at a file_url: /files on local disk, the bucket's (or S3_PUBLIC_URL's) own URL on S3. */
async function served(fileUrl: string): Promise<{ status: number; bytes: Buffer }> {
  const local = new URL(fileUrl);
  if (local.origin === "http://localhost:3000") {
    const key = local.pathname.replace(/^\/files\//, "").split("/");
    const res = await call(FILE_GET, local.pathname, { params: { key } });
    return { status: res.status, bytes: Buffer.from(await res.response.arrayBuffer()) };
  }
  const res = await fetch(fileUrl);
  return { status: res.status, bytes: Buffer.from(await res.arrayBuffer()) };
}

describe.each(drivers)("success (%s)", (_driver, install) => {
  test("ten parallel PUTs of one upload_url: one stores the file, nine are 409, the file stays at file_url", async () => {
    install();
    const { user, key } = await createActor();
    const png = await media.image("png", 16);
    const { upload_url, file_url } = await initiate(key, "image/png");

    const answers = await Promise.all(Array.from({ length: 10 }, () => put(upload_url, new Uint8Array(png), "image/png")));

    const statuses = answers.map((a) => a.status).sort();
    expect(statuses).toEqual([200, 409, 409, 409, 409, 409, 409, 409, 409, 409]);
    expect(answers.find((a) => a.status === 200)!.body).toEqual({ file_url, content_type: "image/png", file_size: png.length });
    for (const loser of answers.filter((a) => a.status === 409)) {
      expect(loser.body).toMatchObject({ success: false, error: "conflict", detail: expect.stringContaining("already used") });
    }
    const file = await served(file_url);
    expect(file.status).toBe(200);
    expect(file.bytes.equals(png)).toBe(true);
    const db = await getDb();
    const rows = await db
      .select()
      .from(assets)
      .where(and(eq(assets.userId, user.id), eq(assets.publicUrl, file_url)));
    expect(rows).toEqual([expect.objectContaining({ kind: "upload", status: "stored", sizeBytes: png.length })]);
    expect(await db.select().from(uploads).where(eq(uploads.assetId, rows[0]!.id))).toHaveLength(1);
    expect(storageFailure()).toBeNull();
  });

  test("a PUT that fails (bytes of another type) leaves the URL unused: the next PUT stores the file", async () => {
    install();
    const { key } = await createActor();
    const { upload_url, file_url } = await initiate(key, "image/png");
    expect((await put(upload_url, new Uint8Array(media.mp3()), "image/png")).status).toBe(415);
    const png = await media.image("png", 16);
    expect((await put(upload_url, new Uint8Array(png), "image/png")).status).toBe(200);
    expect((await served(file_url)).bytes.equals(png)).toBe(true);
  });
});
