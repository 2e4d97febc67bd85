import { eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import { getDb } from "@/db/client";
import { assets } from "@/db/schema";
import { GET as getFile } from "@/app/files/[...key]/route";
import { assetList, assetSchema } from "@/lib/http/contracts/assets";
import { currentStorage, setStorage } from "@/lib/storage";
import { createActor } from "@/test/factories";
import { call } from "@/test/http";
import * as media from "@/test/media";
import { startS3Server, type S3Server } from "@/test/servers/s3";
import { POST as upload } from "../../uploads/route";
import { GET as list } from "../route";
import { DELETE, GET } from "./route";

let s3: S3Server;
beforeAll(async () => {
  s3 = await startS3Server();
});
afterAll(async () => {
  await s3.close();
});
afterEach(() => setStorage(undefined));

async function uploaded(key: string, file?: Uint8Array) {
  const { body, contentType } = media.multipart(file ?? (await media.image("png")), { contentType: null });
  const res = await call(upload, "/me/uploads", { key, body, headers: { "content-type": contentType } });
  expect(res.status).toBe(201);
  return res.body as { assetId: string; url: string };
}

const fileAt = (url: string) => {
  const path = new URL(url).pathname;
  return call(getFile, path, { params: { key: path.replace(/^\/files\//, "").split("/") } });
};
const notFound = { success: false, error: "not_found", message: "Asset not found" };

describe("success", () => {
  test("GET returns the owner's asset", async () => {
    const actor = await createActor();
    const up = await uploaded(actor.key);
    const res = await call(GET, `/me/assets/${up.assetId}`, { key: actor.key, params: { id: up.assetId } });
    expect(res.status).toBe(200);
    expect(assetSchema.parse(res.body)).toMatchObject({
      id: up.assetId,
      kind: "upload",
      status: "stored",
      publicUrl: up.url,
      contentType: "image/png",
      s3Bucket: "local",
      sourceUrl: null,
    });
  });

  test("DELETE removes the object: the URL answers 404 and the row is kept as deleted", async () => {
    const actor = await createActor();
    const up = await uploaded(actor.key);
    expect((await fileAt(up.url)).status).toBe(200);

    const res = await call(DELETE, `/me/assets/${up.assetId}`, { key: actor.key, method: "DELETE", params: { id: up.assetId } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ id: up.assetId, deleted: true });

    expect((await fileAt(up.url)).status).toBe(404);
    const db = await getDb();
    const [row] = await db.select().from(assets).where(eq(assets.id, up.assetId));
    expect(row).toMatchObject({ status: "deleted", deletedAt: expect.any(Date) });
    expect(await currentStorage()!.head(row!.s3Key)).toBeNull();
    expect((await call(GET, `/me/assets/${up.assetId}`, { key: actor.key, params: { id: up.assetId } })).body).toEqual(notFound);
    expect((await call(DELETE, `/me/assets/${up.assetId}`, { key: actor.key, method: "DELETE", params: { id: up.assetId } })).status).toBe(
      404,
    );
  });

  test("on S3, DELETE removes the object from the bucket", async () => {
    const storage = s3.storage();
    setStorage(storage);
    const actor = await createActor();
    const up = await uploaded(actor.key, media.mp4());
    const db = await getDb();
    const [row] = await db.select().from(assets).where(eq(assets.id, up.assetId));
    expect(await storage.head(row!.s3Key)).not.toBeNull();
    expect((await fetch(up.url)).status).toBe(200);
    await call(DELETE, `/me/assets/${up.assetId}`, { key: actor.key, method: "DELETE", params: { id: up.assetId } });
    expect(await storage.head(row!.s3Key)).toBeNull();
    expect((await fetch(up.url)).status).toBe(404);
  });

  test("the list has the caller's live assets only, newest first, filtered and paged", async () => {
    const [alice, bob] = [await createActor(), await createActor()];
    const a1 = await uploaded(alice.key);
    const a2 = await uploaded(alice.key, media.mp4());
    const a3 = await uploaded(alice.key, media.wav());
    await uploaded(bob.key);
    await call(DELETE, `/me/assets/${a2.assetId}`, { key: alice.key, method: "DELETE", params: { id: a2.assetId } });

    const all = await call(list, "/me/assets", { key: alice.key });
    expect(all.status).toBe(200);
    expect(assetList.parse(all.body)).toMatchObject({ total: 2, limit: 50, offset: 0 });
    expect(all.body.items.map((a: { id: string }) => a.id)).toEqual([a3.assetId, a1.assetId]);
    const page = await call(list, "/me/assets?limit=1&offset=1&kind=upload", { key: alice.key });
    expect(page.body).toMatchObject({ total: 2, limit: 1, offset: 1, items: [{ id: a1.assetId }] });
    expect((await call(list, "/me/assets?kind=result", { key: alice.key })).body).toMatchObject({ total: 0, items: [] });
  });
});

describe("validation", () => {
  test("bad list queries → 400 invalid_query", async () => {
    const actor = await createActor();
    for (const q of ["limit=0", "limit=201", "offset=-1", "kind=video", "status=deleted"]) {
      const res = await call(list, `/me/assets?${q}`, { key: actor.key });
      expect({ q, status: res.status, error: res.body.error }).toEqual({ q, status: 400, error: "invalid_query" });
    }
  });

  test("DELETE with storage disabled → 503, and the asset stays", async () => {
    const actor = await createActor();
    const up = await uploaded(actor.key);
    setStorage(null);
    const res = await call(DELETE, `/me/assets/${up.assetId}`, { key: actor.key, method: "DELETE", params: { id: up.assetId } });
    expect(res.status).toBe(503);
    expect(res.body.error).toBe("asset_storage_disabled");
    setStorage(undefined);
    expect((await fileAt(up.url)).status).toBe(200);
  });
});

describe("auth", () => {
  test("another user's asset is 404, exactly like a missing one, and survives their DELETE", async () => {
    const [alice, bob] = [await createActor(), await createActor()];
    const up = await uploaded(alice.key);
    const foreign = await call(GET, `/me/assets/${up.assetId}`, { key: bob.key, params: { id: up.assetId } });
    const missing = await call(GET, "/me/assets/00000000-0000-4000-8000-000000000000", {
      key: bob.key,
      params: { id: "00000000-0000-4000-8000-000000000000" },
    });
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual(missing.body);
    expect(foreign.body).toEqual(notFound);
    const del = await call(DELETE, `/me/assets/${up.assetId}`, { key: bob.key, method: "DELETE", params: { id: up.assetId } });
    expect(del.body).toEqual(notFound);
    expect((await fileAt(up.url)).status).toBe(200);
  });

  test("no credentials → 401", async () => {
    const res = await call(GET, "/me/assets/x", { params: { id: "x" } });
    expect(res.status).toBe(401);
    expect((await call(list, "/me/assets")).status).toBe(401);
  });
});
