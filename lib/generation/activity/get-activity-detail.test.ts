import { describe, expect, test } from "vitest";
import { DomainError } from "@/lib/core/errors";
import { createActor } from "@/test/factories";
import { ctxOf, finishedGeneration } from "@/test/generation-records";
import { getActivityDetail } from "./get-activity-detail";

describe("success", () => {
  test("the owner's record by its id: record, generation (input, output, reserved and settled) and live files", async () => {
    const alice = await createActor();
    const g = await finishedGeneration(alice.user.id);
    const detail = await getActivityDetail(await ctxOf(alice.session), g.record.id);
    expect(detail.record).toEqual({
      id: g.record.id,
      modelId: "fal-ai/flux/schnell",
      operation: "queue",
      credits: 8,
      status: "completed",
      errorCode: null,
      requestId: g.requestId,
      apiKeyId: null,
      durationMs: 2000,
      createdAt: g.record.createdAt.toISOString(),
      falRequestId: g.falRequestId,
      provider: null,
      attempts: [],
    });
    expect(detail.generation).toMatchObject({
      id: g.requestId,
      status: "completed",
      input: { prompt: "a red fox" },
      output: { images: [{ content_type: "image/jpeg", width: 512, height: 512 }], seed: 7 },
      reservedCredits: 8,
      settledCredits: 8,
      startedAt: "2026-01-01T00:00:01.000Z",
      completedAt: "2026-01-01T00:00:03.000Z",
    });
    // The deleted file is not listed.
    expect(detail.assets.map((a) => [a.s3Key, a.status, a.contentType])).toEqual([
      [`${alice.user.id}/${g.requestId}/0.jpg`, "stored", "image/jpeg"],
    ]);
  });

  test("the provider's request id finds the same record; a record that never reached the provider lists its generation's files", async () => {
    const alice = await createActor();
    const g = await finishedGeneration(alice.user.id);
    const ctx = await ctxOf(alice.session);
    expect((await getActivityDetail(ctx, g.falRequestId!)).record.id).toBe(g.record.id);
    const unsent = await finishedGeneration(alice.user.id, { falRequestId: null });
    const detail = await getActivityDetail(ctx, unsent.record.id);
    expect(detail.record.falRequestId).toBeNull();
    expect(detail.assets).toHaveLength(1);
  });

  test("a failed run: no output, its error code, settled to nothing", async () => {
    const alice = await createActor();
    const g = await finishedGeneration(alice.user.id, { status: "failed" });
    const detail = await getActivityDetail(await ctxOf(alice.session), g.record.id);
    expect(detail.record).toMatchObject({ status: "failed", errorCode: "generation_failed", credits: 0 });
    expect(detail.generation).toMatchObject({ output: null, errorCode: "generation_failed", settledCredits: 0 });
    expect(detail.assets).toEqual([]);
  });
});

describe("auth", () => {
  test("another user's record is 404, exactly like missing ones", async () => {
    const [alice, bob] = [await createActor(), await createActor()];
    const g = await finishedGeneration(alice.user.id);
    const bobCtx = await ctxOf(bob.session);
    for (const id of [g.record.id, g.falRequestId!, "act_missing"]) {
      const err = await getActivityDetail(bobCtx, id).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(DomainError);
      expect(err).toMatchObject({ code: "not_found" });
    }
  });
});
