import { describe, expect, test } from "vitest";
import { fundedActor, pathOf } from "@/test/generation";
import { call } from "@/test/http";
import { GET as BALANCE } from "../balance/route";
import { GET as TRANSACTIONS } from "../transactions/route";
import { POST as RUN } from "../../run/[...path]/route";
import { GET as BY_KEY } from "./by-key/route";
import { GET as BY_MODEL } from "./by-model/route";
import { GET as HISTORY } from "./history/route";
import { GET as USAGE } from "./route";

const FLUX = "fal-ai/flux/dev";
// 2.25 ₽ per megapixel × 1024×1024 (square_hd) = 2.359296 ₽ → 2.3593 ₽ (the engine's own test).
const FLUX_SQUARE_HD = 23_593;

describe("the read side after real generations through the engine", () => {
  test("two sync /run calls show in balance, ledger, usage, by-model, by-key and history with the same credits", async () => {
    const { user, key, apiKey } = await fundedActor(100);
    for (const prompt of ["one", "two"]) {
      const res = await call(RUN, `/run/${FLUX}`, { params: pathOf(FLUX), body: { prompt }, key });
      expect(res.status).toBe(200);
    }
    const spent = 2 * FLUX_SQUARE_HD;
    expect((await call(BALANCE, "/me/balance", { key })).body).toEqual({ userId: user.id, balance: 1_000_000 - spent });

    const ledger = await call(TRANSACTIONS, "/me/transactions?type=generation_reserve", { key });
    expect(ledger.body.items.map((t: { amount: number }) => t.amount)).toEqual([-FLUX_SQUARE_HD, -FLUX_SQUARE_HD]);
    expect(ledger.body.items[0].balanceAfter).toBe(1_000_000 - spent);

    const usage = await call(USAGE, "/me/usage?windows=1h", { key });
    expect(usage.body).toEqual({
      balance: 1_000_000 - spent,
      windows: [{ window: "1h", credits: spent, count: 2, byModel: [{ modelId: FLUX, credits: spent, count: 2 }] }],
    });
    const byModel = await call(BY_MODEL, "/me/usage/by-model?window=24h", { key });
    expect(byModel.body.items).toEqual([
      { modelId: FLUX, displayName: expect.any(String), priceUnit: "megapixel", credits: spent, count: 2 },
    ]);
    const byKey = await call(BY_KEY, "/me/usage/by-key?window=24h", { key });
    expect(byKey.body.items).toEqual([
      {
        apiKeyId: apiKey.id,
        keyName: apiKey.name,
        partialKey: `${apiKey.start}…`,
        credits: spent,
        count: 2,
        lastUsedAt: expect.any(String),
      },
    ]);
    const history = await call(HISTORY, "/me/usage/history?granularity=hour", { key });
    expect(history.body.series.reduce((s: number, p: { credits: number }) => s + p.credits, 0)).toBe(spent);
  });
});
