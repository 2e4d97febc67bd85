import { and, eq } from "drizzle-orm";
import { describe, expect, test } from "vitest";
import { getDb } from "@/db/client";
import { balances, creditTransactions } from "@/db/schema";
import { adminCreditsResult } from "@/lib/http/contracts/admin-money";
import { runAuthContract } from "@/test/auth-contract";
import { createSession, createUser } from "@/test/factories";
import { call } from "@/test/http";
import { grant } from "@/test/money";
import { POST as CLAWBACK } from "../clawback/route";
import { POST as GRANT } from "./route";

const notFound = { success: false, error: "not_found", message: "User not found" };

async function adminSession() {
  const admin = await createUser({ role: "admin" });
  return { admin, session: (await createSession(admin)).token };
}

const balanceOf = async (userId: string) =>
  (await (await getDb()).select().from(balances).where(eq(balances.userId, userId)))[0]?.credits ?? 0;
const rowsOf = async (userId: string) => (await getDb()).select().from(creditTransactions).where(eq(creditTransactions.userId, userId));

describe("POST /admin/users/{id}/credits/grant", () => {
  describe("success", () => {
    test("201 with the grant row; the balance moves; the admin is recorded as the actor", async () => {
      const { admin, session } = await adminSession();
      const user = await createUser();
      const res = await call(GRANT, "/", { session, params: { id: user.id }, body: { amount: 5_000_000, description: "Welcome bonus" } });
      expect(res.status).toBe(201);
      expect(adminCreditsResult.parse(res.body)).toEqual(res.body);
      expect(res.body).toEqual({
        transaction: {
          id: expect.any(String),
          userId: user.id,
          type: "grant",
          amount: 5_000_000,
          balanceAfter: 5_000_000,
          description: "Welcome bonus",
          createdAt: expect.any(String),
        },
      });
      expect(await balanceOf(user.id)).toBe(5_000_000);
      const [row] = await rowsOf(user.id);
      expect(row).toMatchObject({ id: res.body.transaction.id, actorUserId: admin.id, type: "grant", amount: 5_000_000 });
      expect(row!.createdAt.toISOString()).toBe(res.body.transaction.createdAt);
    });

    test("each request is its own grant (the same body twice grants twice); no description is null", async () => {
      const { session } = await adminSession();
      const user = await createUser();
      const first = await call(GRANT, "/", { session, params: { id: user.id }, body: { amount: 100 } });
      const second = await call(GRANT, "/", { session, params: { id: user.id }, body: { amount: 100, description: "  " } });
      expect([first.status, second.status]).toEqual([201, 201]);
      expect(second.body.transaction).toMatchObject({ amount: 100, balanceAfter: 200, description: null });
      expect(await rowsOf(user.id)).toHaveLength(2);
      expect(await balanceOf(user.id)).toBe(200);
    });
  });

  describe("validation", () => {
    test.each([
      [{}, ["amount"]],
      [{ amount: 0 }, ["amount"]],
      [{ amount: -5 }, ["amount"]],
      [{ amount: 1.5 }, ["amount"]],
      [{ amount: "100" }, ["amount"]],
      [{ amount: 100_000_000_001 }, ["amount"]],
      [{ amount: 1, description: "x".repeat(501) }, ["description"]],
    ])("%j → 400 invalid_body, nothing moves", async (body, path) => {
      const { session } = await adminSession();
      const user = await createUser();
      const res = await call(GRANT, "/", { session, params: { id: user.id }, body });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        success: false,
        error: "invalid_body",
        message: expect.any(String),
        issues: [{ path, message: expect.any(String) }],
      });
      expect(await rowsOf(user.id)).toEqual([]);
    });

    test("an unknown user → 404 not_found, nothing written", async () => {
      const { session } = await adminSession();
      const res = await call(GRANT, "/", { session, params: { id: "no-such-user" }, body: { amount: 100 } });
      expect(res.status).toBe(404);
      expect(res.body).toEqual(notFound);
      expect(await rowsOf("no-such-user")).toEqual([]);
    });
  });

  runAuthContract("POST /admin/users/{id}/credits/grant", GRANT, "/", "admin", (user) => ({
    params: { id: user.id },
    body: { amount: 1 },
  }));
});

describe("POST /admin/users/{id}/credits/clawback", () => {
  describe("success", () => {
    test("takes the amount back: 201 with a negative row and the balance after", async () => {
      const { admin, session } = await adminSession();
      const user = await createUser();
      await grant(user.id, 30_000, "topup");
      const res = await call(CLAWBACK, "/", { session, params: { id: user.id }, body: { amount: 10_000, description: "Chargeback" } });
      expect(res.status).toBe(201);
      expect(adminCreditsResult.parse(res.body)).toEqual(res.body);
      expect(res.body.transaction).toEqual({
        id: expect.any(String),
        userId: user.id,
        type: "clawback",
        amount: -10_000,
        balanceAfter: 20_000,
        description: "Chargeback",
        createdAt: expect.any(String),
      });
      expect(await balanceOf(user.id)).toBe(20_000);
      const [row] = (await rowsOf(user.id)).filter((r) => r.type === "clawback");
      expect(row).toMatchObject({ actorUserId: admin.id });
    });

    test("never below zero: asking for more than the balance takes the balance, and the row says so", async () => {
      const { session } = await adminSession();
      const user = await createUser();
      await grant(user.id, 700);
      const res = await call(CLAWBACK, "/", { session, params: { id: user.id }, body: { amount: 5_000 } });
      expect(res.status).toBe(201);
      expect(res.body.transaction).toMatchObject({ amount: -700, balanceAfter: 0 });
      const empty = await call(CLAWBACK, "/", { session, params: { id: user.id }, body: { amount: 5_000 } });
      expect(empty.body.transaction).toMatchObject({ amount: 0, balanceAfter: 0 });
      expect(await balanceOf(user.id)).toBe(0);
      const ledger = await rowsOf(user.id);
      expect(ledger.reduce((s, r) => s + r.amount, 0)).toBe(0);
    });

    test("concurrent clawbacks never overdraw: the rows take exactly the balance between them", async () => {
      const { session } = await adminSession();
      const user = await createUser();
      await grant(user.id, 10_000);
      const results = await Promise.all(
        Array.from({ length: 8 }, () => call(CLAWBACK, "/", { session, params: { id: user.id }, body: { amount: 3_000 } })),
      );
      expect(results.map((r) => r.status)).toEqual(Array(8).fill(201));
      const taken = results.reduce((s, r) => s - r.body.transaction.amount, 0);
      expect(taken).toBe(10_000);
      expect(await balanceOf(user.id)).toBe(0);
    });
  });

  describe("validation", () => {
    test("amount 0 → 400 invalid_body; an unknown user → 404", async () => {
      const { session } = await adminSession();
      const user = await createUser();
      const bad = await call(CLAWBACK, "/", { session, params: { id: user.id }, body: { amount: 0 } });
      expect(bad.status).toBe(400);
      expect(bad.body).toMatchObject({ error: "invalid_body", issues: [{ path: ["amount"] }] });
      const missing = await call(CLAWBACK, "/", { session, params: { id: "no-such-user" }, body: { amount: 1 } });
      expect(missing.status).toBe(404);
      expect(missing.body).toEqual(notFound);
      expect(
        await (
          await getDb()
        )
          .select()
          .from(balances)
          .where(and(eq(balances.userId, "no-such-user"))),
      ).toEqual([]);
    });
  });

  runAuthContract("POST /admin/users/{id}/credits/clawback", CLAWBACK, "/", "admin", (user) => ({
    params: { id: user.id },
    body: { amount: 1 },
  }));
});
