import { describe, expect, test } from "vitest";
import { gatewayBalanceSchema } from "@/lib/http/contracts/money";
import { runAuthContract } from "@/test/auth-contract";
import { createActor } from "@/test/factories";
import { call } from "@/test/http";
import { grant, spend } from "@/test/money";
import { GET } from "./route";

describe("GET /me/balance", () => {
  describe("success", () => {
    test("the balance after ledger moves, in credits, with a key and with a session", async () => {
      const me = await createActor();
      const other = await createActor();
      await grant(me.user.id, 1_000_000, "topup");
      await spend(me.user.id, 12_345, me.apiKey.id);
      await grant(other.user.id, 7);
      for (const auth of [{ key: me.key }, { session: me.session }]) {
        const res = await call(GET, "/me/balance", auth);
        expect(res.status).toBe(200);
        expect(gatewayBalanceSchema.parse(res.body)).toEqual(res.body);
        expect(res.body).toEqual({ userId: me.user.id, balance: 987_655 });
      }
    });

    test("a user who never had a move has 0", async () => {
      const me = await createActor();
      const res = await call(GET, "/me/balance", { key: me.key });
      expect(res.body).toEqual({ userId: me.user.id, balance: 0 });
    });
  });

  runAuthContract("GET /me/balance", GET, "/me/balance", "key");
});
