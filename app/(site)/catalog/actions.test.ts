import { describe, expect, test } from "vitest";
import { estimateAction } from "./actions";

describe("the catalog page's estimate (server action, no key)", () => {
  test("prices a complete input exactly like POST /models/{id}/estimate", async () => {
    expect(await estimateAction("fal-ai/fast-lcm-diffusion", { prompt: "a cat", num_images: 3 })).toEqual({
      estimate: expect.objectContaining({ estimatedCostRub: 0.0011, estimatedCostCredits: 11, quantity: 3, priceUnit: "image" }),
      issues: [],
    });
  });

  test("a half-filled form still gets a price, with the missing fields noted", async () => {
    const res = await estimateAction("fal-ai/flux/dev", { num_images: 2 });
    expect(res.estimate).toMatchObject({ estimatedCostCredits: 47_186, quantity: 2.097152 });
    expect(res.issues).toEqual([{ path: ["prompt"], message: "Required" }]);
  });

  test("an invalid value blocks the price (it would quote a request that cannot run)", async () => {
    const res = await estimateAction("fal-ai/flux/dev", { prompt: "x", num_images: 9 });
    expect(res.estimate).toBeNull();
    expect(res.issues).toEqual([{ path: ["num_images"], message: expect.stringContaining("4") }]);
  });

  test.each([
    ["a hidden model", "fal-ai/flux-pro/v1", {}],
    ["an unknown model", "nope/nope", {}],
    ["a non-string id", 42, {}],
    ["a non-object input", "fal-ai/flux/dev", [1]],
    ["an oversized input", "fal-ai/flux/dev", { prompt: "x".repeat(70_000) }],
  ])("%s gets no price and one issue, never an exception", async (_, modelId, input) => {
    const res = await estimateAction(modelId, input);
    expect(res).toEqual({ estimate: null, issues: [{ path: [], message: expect.any(String) }] });
  });
});
