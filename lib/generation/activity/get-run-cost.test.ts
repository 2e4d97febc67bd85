import { randomUUID } from "node:crypto";
import { describe, expect, test } from "vitest";
import { createActor, contextOf } from "@/test/factories";
import { finishedGeneration } from "@/test/generation-records";
import { getRunCost } from "./get-run-cost";

describe("success", () => {
  test("the playground's run cost: reserved and settled credits of the caller's own request", async () => {
    const alice = await createActor();
    const g = await finishedGeneration(alice.user.id);
    expect(await getRunCost(await contextOf(alice.user), g.requestId)).toEqual({
      requestId: g.requestId,
      status: "completed",
      sandbox: false,
      reservedCredits: 8,
      settledCredits: 8,
    });
  });
});

describe("auth", () => {
  test("another user's request is 404, exactly like a missing one", async () => {
    const [alice, bob] = [await createActor(), await createActor()];
    const g = await finishedGeneration(alice.user.id);
    for (const id of [g.requestId, randomUUID()]) {
      await expect(getRunCost(await contextOf(bob.user), id)).rejects.toMatchObject({ code: "not_found" });
    }
  });
});
