import { describe, expect, test } from "vitest";
import { transactionListSchema } from "@/lib/http/contracts/money";
import { runAuthContract } from "@/test/auth-contract";
import { createActor } from "@/test/factories";
import { call } from "@/test/http";
import { grant, spend } from "@/test/money";
import { GET } from "./route";

const invalidQuery = (path: string[]) => ({
  success: false,
  error: "invalid_query",
  message: expect.any(String),
  issues: [{ path, message: expect.any(String) }],
});

describe("GET /me/transactions", () => {
  describe("success", () => {
    test("your ledger rows newest first with balanceAfter, paged, with the total; nobody else's", async () => {
      const me = await createActor();
      const other = await createActor();
      const t1 = (await grant(me.user.id, 50_000, "topup", "Top-up 5 ₽")).transaction!;
      const t2 = (await spend(me.user.id, 1_500, me.apiKey.id)).transaction!;
      const t3 = (await grant(me.user.id, 10_000, "grant", "Welcome")).transaction!;
      await grant(other.user.id, 99);
      const res = await call(GET, "/me/transactions?limit=2", { key: me.key });
      expect(res.status).toBe(200);
      expect(transactionListSchema.parse(res.body)).toEqual(res.body);
      expect(res.body).toEqual({
        items: [
          {
            id: t3.id,
            userId: me.user.id,
            type: "grant",
            amount: 10_000,
            balanceAfter: 58_500,
            description: "Welcome",
            createdAt: t3.createdAt.toISOString(),
          },
          {
            id: t2.id,
            userId: me.user.id,
            type: "generation_reserve",
            amount: -1_500,
            balanceAfter: 48_500,
            description: t2.description,
            createdAt: t2.createdAt.toISOString(),
          },
        ],
        total: 3,
        limit: 2,
        offset: 0,
      });
      const page2 = await call(GET, "/me/transactions?limit=2&offset=2", { session: me.session });
      expect(page2.body).toEqual({
        items: [
          {
            id: t1.id,
            userId: me.user.id,
            type: "topup",
            amount: 50_000,
            balanceAfter: 50_000,
            description: "Top-up 5 ₽",
            createdAt: t1.createdAt.toISOString(),
          },
        ],
        total: 3,
        limit: 2,
        offset: 2,
      });
    });

    test("?type= keeps one type; the default page is 50", async () => {
      const me = await createActor();
      await grant(me.user.id, 100_000, "topup");
      await spend(me.user.id, 10);
      await spend(me.user.id, 20);
      const res = await call(GET, "/me/transactions?type=generation_reserve", { key: me.key });
      expect(res.body).toMatchObject({ total: 2, limit: 50, offset: 0 });
      expect(res.body.items.map((t: { amount: number }) => t.amount)).toEqual([-20, -10]);
      expect((await call(GET, "/me/transactions?type=clawback", { key: me.key })).body).toEqual({
        items: [],
        total: 0,
        limit: 50,
        offset: 0,
      });
    });
  });

  describe("validation", () => {
    test.each([
      ["limit=0", ["limit"]],
      ["limit=201", ["limit"]],
      ["limit=abc", ["limit"]],
      ["offset=-1", ["offset"]],
      ["type=refund", ["type"]],
    ])("?%s → 400 invalid_query", async (qs, path) => {
      const me = await createActor();
      const res = await call(GET, `/me/transactions?${qs}`, { key: me.key });
      expect(res.status).toBe(400);
      expect(res.body).toEqual(invalidQuery(path));
    });
  });

  runAuthContract("GET /me/transactions", GET, "/me/transactions", "key");
});
