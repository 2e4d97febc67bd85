import { describe, expect, test } from "vitest";
import { skillBalanceSchema } from "@/lib/http/contracts/money";
import { createActor, createApiKey, createUser } from "@/test/factories";
import { call } from "@/test/http";
import { grant, spend } from "@/test/money";
import { GET } from "./route";

describe("GET /api/v1/balance", () => {
  describe("success", () => {
    test.each([
      // spent (credits), tier, rpm — thresholds 0 / 1,000 / 10,000 / 100,000 ₽ are reached exactly.
      [0, 1, 10],
      [9_999_999, 1, 10],
      [10_000_000, 2, 30],
      [100_000_000, 3, 60],
      [1_000_000_000, 4, 120],
    ])("spent %i credits → tier %i, %i rpm; rubles exact to 0.0001 ₽", async (spent, tier, rpm) => {
      const me = await createActor();
      await grant(me.user.id, spent + 12_345, "topup");
      if (spent > 0) await spend(me.user.id, spent, me.apiKey.id);
      const res = await call(GET, "/api/v1/balance", { key: me.key });
      expect(res.status).toBe(200);
      expect(skillBalanceSchema.parse(res.body)).toEqual(res.body);
      expect(res.body).toEqual({ balance_rub: 1.2345, tier, rate_limit: rpm, total_spent_rub: spent / 10_000 });
    });

    test("a user with no ledger moves: 0 ₽, tier 1", async () => {
      const me = await createActor();
      const res = await call(GET, "/api/v1/balance", { key: me.key });
      expect(res.body).toEqual({ balance_rub: 0, tier: 1, rate_limit: 10, total_spent_rub: 0 });
    });
  });

  describe("auth (skill envelope)", () => {
    test("no key or a bad key → 401 UNAUTHORIZED", async () => {
      for (const headers of [{}, { authorization: "Bearer nope" }] as Record<string, string>[]) {
        const res = await call(GET, "/api/v1/balance", { headers });
        expect(res.status).toBe(401);
        expect(res.body).toEqual({ error: expect.any(String), code: "UNAUTHORIZED", details: { reason: "unauthorized" } });
      }
    });

    test("a banned user's key → 403 UNAUTHORIZED", async () => {
      const user = await createUser({ banned: true });
      const res = await call(GET, "/api/v1/balance", { key: (await createApiKey(user)).key });
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ error: expect.any(String), code: "UNAUTHORIZED", details: { reason: "forbidden" } });
    });
  });
});
