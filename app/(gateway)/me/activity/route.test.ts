import { describe, expect, test } from "vitest";
import { activityList } from "@/lib/http/contracts/generation";
import { createActor } from "@/test/factories";
import { fundedActor, pathOf } from "@/test/generation";
import { call } from "@/test/http";
import { POST as RUN } from "../../run/[...path]/route";
import { GET } from "./route";

const run = (modelId: string, prompt: string, key: string) =>
  call(RUN, `/run/${modelId}`, { params: pathOf(modelId), body: { prompt }, key });

describe("GET /me/activity", () => {
  test("the caller's records, newest first, filtered by model, key, operation and status", async () => {
    const { key, apiKey } = await fundedActor(100);
    const ok = await run("fal-ai/flux/dev", "one", key);
    const failed = await run("fal-ai/flux/schnell", "two [fail:generation]", key);
    const all = await call(GET, "/me/activity", { key });
    expect(all.status).toBe(200);
    const body = activityList.parse(all.body);
    expect(body).toMatchObject({ total: 2, limit: 50, offset: 0 });
    expect(body.items.map((i) => i.requestId)).toEqual([failed.body.requestId, ok.body.request_id]);
    expect(body.items[1]).toMatchObject({
      modelId: "fal-ai/flux/dev",
      operation: "run",
      status: "completed",
      credits: 23_593,
      apiKeyId: apiKey.id,
      errorCode: null,
    });
    // Each record carries its first stored output for the list's thumbnail; a failed run has none.
    expect(body.items[1]!.preview).toEqual({ url: ok.body.images[0].url, contentType: ok.body.images[0].content_type });
    expect(body.items[0]!.preview).toBeNull();

    const byStatus = await call(GET, "/me/activity?status=failed", { key });
    expect(byStatus.body.items.map((i: { errorCode: string }) => i.errorCode)).toEqual(["generation_failed"]);
    expect((await call(GET, "/me/activity?modelId=fal-ai/flux/dev&operation=run", { key })).body.total).toBe(1);
    expect((await call(GET, `/me/activity?apiKeyId=${apiKey.id}&limit=1`, { key })).body).toMatchObject({
      total: 2,
      limit: 1,
      items: [{ requestId: failed.body.requestId }],
    });
    expect((await call(GET, "/me/activity?operation=queue", { key })).body.total).toBe(0);
  });

  test("another user's records are never listed", async () => {
    const { key } = await fundedActor(100);
    await run("fal-ai/flux/dev", "mine", key);
    const other = await createActor();
    expect((await call(GET, "/me/activity", { key: other.key })).body).toEqual({ items: [], total: 0, limit: 50, offset: 0 });
  });

  test("a bad filter is 400 invalid_query; no key is 401", async () => {
    const { key } = await fundedActor(0);
    expect((await call(GET, "/me/activity?status=weird", { key })).body).toMatchObject({ error: "invalid_query" });
    expect((await call(GET, "/me/activity")).status).toBe(401);
  });
});
