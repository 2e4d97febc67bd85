import { describe, expect, test } from "vitest";
import { getDb } from "@/db/client";
import { activity, assets } from "@/db/schema";
import { createUser } from "@/test/factories";
import { recentRuns } from "./recent-runs";

let seq = 0;
const id = (p: string) => `${p}_${Date.now().toString(36)}${(seq++).toString(36)}`;

async function run(userId: string, minutesAgo: number, extra: Partial<typeof activity.$inferInsert> = {}) {
  const row = {
    id: id("act"),
    userId,
    modelId: "fal-ai/flux/schnell",
    operation: "run",
    credits: 1234,
    status: "completed",
    requestId: crypto.randomUUID() as string,
    createdAt: new Date(Date.now() - minutesAgo * 60_000),
    ...extra,
  };
  await (await getDb()).insert(activity).values(row);
  return { ...row, requestId: row.requestId! };
}

async function asset(userId: string, generationId: string, over: Partial<typeof assets.$inferInsert> = {}) {
  const assetId = id("ast");
  await (await getDb()).insert(assets).values({
    id: assetId,
    userId,
    kind: "result",
    generationId,
    sourceUrl: `http://provider.test/${assetId}.png`,
    s3Key: `${assetId}.png`,
    s3Bucket: "test",
    contentType: "image/png",
    status: "stored",
    publicUrl: `http://files.test/${assetId}.png`,
    ...over,
  });
  return `http://files.test/${assetId}.png`;
}

describe("recentRuns", () => {
  describe("success", () => {
    test("the user's newest records first, each with its first stored image; other users' never", async () => {
      const db = await getDb();
      const me = await createUser();
      const other = await createUser();
      const old = await run(me.id, 30);
      const failed = await run(me.id, 20, { status: "failed", errorCode: "provider_error", credits: 0 });
      const latest = await run(me.id, 10);
      const mine = await asset(me.id, latest.requestId, { createdAt: new Date(Date.now() - 9 * 60_000) });
      await asset(me.id, latest.requestId, { createdAt: new Date(Date.now() - 8 * 60_000) });
      await asset(me.id, old.requestId, { status: "deleted" });
      await asset(me.id, old.requestId, { contentType: "audio/wav", publicUrl: "http://files.test/a.wav" });
      const theirs = await run(other.id, 1);
      // Another user's asset under my run's id is not mine to show.
      await asset(other.id, failed.requestId);
      await asset(other.id, theirs.requestId);

      expect(await recentRuns(db, me.id)).toEqual([
        {
          id: latest.id,
          modelId: "fal-ai/flux/schnell",
          operation: "run",
          status: "completed",
          errorCode: null,
          credits: 1234,
          createdAt: latest.createdAt.toISOString(),
          thumbnailUrl: mine,
        },
        {
          id: failed.id,
          modelId: "fal-ai/flux/schnell",
          operation: "run",
          status: "failed",
          errorCode: "provider_error",
          credits: 0,
          createdAt: failed.createdAt.toISOString(),
          thumbnailUrl: null,
        },
        {
          id: old.id,
          modelId: "fal-ai/flux/schnell",
          operation: "run",
          status: "completed",
          errorCode: null,
          credits: 1234,
          createdAt: old.createdAt.toISOString(),
          thumbnailUrl: null,
        },
      ]);
      expect((await recentRuns(db, me.id, 1)).map((r) => r.id)).toEqual([latest.id]);
    });

    test("a user with no runs gets an empty list", async () => {
      const me = await createUser();
      expect(await recentRuns(await getDb(), me.id)).toEqual([]);
    });
  });
});
