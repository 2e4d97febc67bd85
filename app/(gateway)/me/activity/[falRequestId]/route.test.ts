import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { getDb } from "@/db/client";
import { activity } from "@/db/schema";
import { GET as getFile } from "@/app/files/[...key]/route";
import { activityWithAssets } from "@/lib/http/contracts/assets";
import { rehostResult } from "@/lib/assets/rehost";
import { createActor } from "@/test/factories";
import { call } from "@/test/http";
import * as media from "@/test/media";
import { startMediaOrigin, type MediaOrigin } from "@/test/servers/media-origin";
import { DELETE } from "./assets/route";
import { GET } from "./route";

let cdn: MediaOrigin;
beforeAll(async () => {
  cdn = await startMediaOrigin("127.0.0.2");
});
afterAll(async () => {
  await cdn.close();
});

/** What the generation issue records: an activity row, and the result re-hosted under its ids. */
async function generation(userId: string, apiKeyId: string | null, images = 2) {
  const requestId = randomUUID();
  const falRequestId = `fal-${randomUUID()}`;
  const db = await getDb();
  const [record] = await db
    .insert(activity)
    .values({
      id: `act_${randomUUID()}`,
      userId,
      apiKeyId,
      modelId: "fal-ai/flux/dev",
      operation: "run",
      credits: 250,
      status: "completed",
      requestId,
      providerRequestId: falRequestId,
      durationMs: 1234,
    })
    .returning();
  for (let i = 0; i < images; i++) cdn.file(`/${requestId}/${i}.jpg`, await media.image("jpeg", 8, i), "image/jpeg");
  const output = { images: Array.from({ length: images }, (_, i) => ({ url: cdn.url(`/${requestId}/${i}.jpg`) })) };
  const rehosted = await rehostResult(db, output, {
    userId,
    generationId: requestId,
    falRequestId,
    net: { policy: { allow: ["127.0.0.2/32"] } },
  });
  return { record: record!, falRequestId, rehosted };
}

const fileAt = (url: string) => {
  const path = new URL(url).pathname;
  return call(getFile, path, { params: { key: path.replace(/^\/files\//, "").split("/") } });
};

describe("success", () => {
  test("the owner gets the record and its assets", async () => {
    const actor = await createActor();
    const { record, falRequestId, rehosted } = await generation(actor.user.id, actor.apiKey.id);
    const res = await call(GET, `/me/activity/${falRequestId}`, { key: actor.key, params: { falRequestId } });
    expect(res.status).toBe(200);
    expect(activityWithAssets.parse(res.body)).toEqual({
      record: {
        id: record.id,
        modelId: "fal-ai/flux/dev",
        operation: "run",
        credits: 250,
        status: "completed",
        errorCode: null,
        requestId: record.requestId,
        apiKeyId: actor.apiKey.id,
        durationMs: 1234,
        createdAt: record.createdAt.toISOString(),
        provider: null,
        attempts: [],
      },
      assets: expect.any(Array),
    });
    expect(res.body.assets.map((a: { id: string }) => a.id).sort()).toEqual(rehosted.assets.map((a) => a.id).sort());
    expect(res.body.assets[0]).toMatchObject({ kind: "result", falRequestId, status: "stored", contentType: "image/jpeg" });
  });

  test("deleting the record's assets removes every object; the record stays", async () => {
    const actor = await createActor();
    const { falRequestId, rehosted } = await generation(actor.user.id, null, 3);
    for (const a of rehosted.assets) expect((await fileAt(a.publicUrl!)).status).toBe(200);

    const res = await call(DELETE, `/me/activity/${falRequestId}/assets`, { key: actor.key, method: "DELETE", params: { falRequestId } });
    expect(res.status).toBe(200);
    expect(res.body.deleted).toBe(3);
    expect(res.body.ids.sort()).toEqual(rehosted.assets.map((a) => a.id).sort());
    for (const a of rehosted.assets) expect((await fileAt(a.publicUrl!)).status).toBe(404);

    const after = await call(GET, `/me/activity/${falRequestId}`, { key: actor.key, params: { falRequestId } });
    expect(after.body.assets).toEqual([]);
    expect(after.body.record.status).toBe("completed");
  });
});

describe("auth", () => {
  test("another user's record is 404, exactly like a missing one; their delete touches nothing", async () => {
    const [alice, bob] = [await createActor(), await createActor()];
    const { falRequestId, rehosted } = await generation(alice.user.id, null);
    const foreign = await call(GET, `/me/activity/${falRequestId}`, { key: bob.key, params: { falRequestId } });
    const missing = await call(GET, "/me/activity/fal-unknown", { key: bob.key, params: { falRequestId: "fal-unknown" } });
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual(missing.body);
    expect(foreign.body).toEqual({ success: false, error: "not_found", message: "Activity record not found" });
    const del = await call(DELETE, `/me/activity/${falRequestId}/assets`, { key: bob.key, method: "DELETE", params: { falRequestId } });
    expect(del.status).toBe(404);
    expect((await fileAt(rehosted.assets[0]!.publicUrl!)).status).toBe(200);
  });

  test("no credentials → 401", async () => {
    expect((await call(GET, "/me/activity/x", { params: { falRequestId: "x" } })).status).toBe(401);
  });
});
