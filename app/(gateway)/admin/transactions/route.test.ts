import { describe, expect, test } from "vitest";
import { transactionListSchema } from "@/lib/http/contracts/money";
import { runAuthContract } from "@/test/auth-contract";
import { createSession, createUser } from "@/test/factories";
import { call } from "@/test/http";
import { grant, spend } from "@/test/money";
import { GET as USER_TRANSACTIONS } from "../users/[id]/transactions/route";
import { GET } from "./route";

const invalidQuery = (path: string[]) => ({
  success: false,
  error: "invalid_query",
  message: expect.any(String),
  issues: [{ path, message: expect.any(String) }],
});

async function adminSession() {
  const admin = await createUser({ role: "admin" });
  return (await createSession(admin)).token;
}

describe("GET /admin/transactions", () => {
  test("every user's rows newest first; filters by userId and type; paged with the total", async () => {
    const session = await adminSession();
    const a = await createUser();
    const b = await createUser();
    const t1 = (await grant(a.id, 10_000, "topup")).transaction!;
    const t2 = (await grant(b.id, 20_000)).transaction!;
    const t3 = (await spend(a.id, 400)).transaction!;
    const view = (t: typeof t1) => ({
      id: t.id,
      userId: t.userId,
      type: t.type,
      amount: t.amount,
      balanceAfter: t.balanceAfter,
      description: t.description,
      createdAt: t.createdAt.toISOString(),
    });
    const all = await call(GET, "/admin/transactions?limit=3", { session });
    expect(all.status).toBe(200);
    expect(transactionListSchema.parse(all.body)).toEqual(all.body);
    expect(all.body.items).toEqual([view(t3), view(t2), view(t1)]);
    expect(all.body.total).toBeGreaterThanOrEqual(3);
    expect((await call(GET, `/admin/transactions?userId=${a.id}`, { session })).body).toEqual({
      items: [view(t3), view(t1)],
      total: 2,
      limit: 50,
      offset: 0,
    });
    expect((await call(GET, `/admin/transactions?userId=${a.id}&type=topup`, { session })).body).toEqual({
      items: [view(t1)],
      total: 1,
      limit: 50,
      offset: 0,
    });
    expect((await call(GET, `/admin/transactions?userId=${a.id}&limit=1&offset=1`, { session })).body).toEqual({
      items: [view(t1)],
      total: 2,
      limit: 1,
      offset: 1,
    });
    expect((await call(GET, "/admin/transactions?userId=nobody", { session })).body).toEqual({ items: [], total: 0, limit: 50, offset: 0 });
  });

  test.each([
    ["limit=0", ["limit"]],
    ["offset=x", ["offset"]],
    ["type=bonus", ["type"]],
    ["userId=", ["userId"]],
  ])("?%s → 400 invalid_query", async (qs, path) => {
    const session = await adminSession();
    const res = await call(GET, `/admin/transactions?${qs}`, { session });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(invalidQuery(path));
  });

  runAuthContract("GET /admin/transactions", GET, "/admin/transactions", "admin");
});

describe("GET /admin/users/{id}/transactions", () => {
  test("one user's rows newest first, by type; a missing user is 404", async () => {
    const session = await adminSession();
    const user = await createUser();
    const other = await createUser();
    await grant(user.id, 5_000, "topup");
    await spend(user.id, 100);
    await spend(user.id, 200);
    await grant(other.id, 1);
    const res = await call(USER_TRANSACTIONS, "/", { session, params: { id: user.id } });
    expect(res.status).toBe(200);
    expect(transactionListSchema.parse(res.body)).toEqual(res.body);
    expect(res.body.items.map((t: { type: string; amount: number; balanceAfter: number }) => [t.type, t.amount, t.balanceAfter])).toEqual([
      ["generation_reserve", -200, 4_700],
      ["generation_reserve", -100, 4_900],
      ["topup", 5_000, 5_000],
    ]);
    expect(res.body).toMatchObject({ total: 3, limit: 50, offset: 0 });
    const typed = await call(USER_TRANSACTIONS, "/?type=topup&limit=5", { session, params: { id: user.id } });
    expect(typed.body).toMatchObject({ total: 1, limit: 5, items: [{ type: "topup", amount: 5_000 }] });
    const missing = await call(USER_TRANSACTIONS, "/", { session, params: { id: "no-such-user" } });
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ success: false, error: "not_found", message: "User not found" });
    const bad = await call(USER_TRANSACTIONS, "/?type=nope", { session, params: { id: user.id } });
    expect(bad.body).toEqual(invalidQuery(["type"]));
  });

  runAuthContract("GET /admin/users/{id}/transactions", USER_TRANSACTIONS, "/", "admin", (user) => ({ params: { id: user.id } }));
});
