import { describe, expect, test } from "vitest";
import { adminUserUsageSchema, topUsersSchema } from "@/lib/http/contracts/admin-money";
import { runAuthContract } from "@/test/auth-contract";
import { createSession, createUser } from "@/test/factories";
import { call } from "@/test/http";
import { insertActivity } from "@/test/money";
import { GET as USER_USAGE } from "../../users/[id]/usage/route";
import { GET } from "./route";

const D = 86_400_000;

async function adminSession() {
  const admin = await createUser({ role: "admin" });
  return (await createSession(admin)).token;
}

describe("GET /admin/usage/top-users", () => {
  test("users ranked by credits in the window (sandbox left out), limited; each with e-mail, name and count", async () => {
    const session = await adminSession();
    // Amounts far above anything else this file writes, so these three lead the ranking.
    const big = await createUser({ name: "Big" });
    const mid = await createUser({ name: "Mid" });
    const old = await createUser({ name: "Old" });
    await insertActivity(big.id, [
      { credits: 9_000_000_000, at: 1000 },
      { credits: 1_000_000_000, at: 2 * D },
      { credits: 50_000_000_000, at: 1000, sandbox: true },
    ]);
    await insertActivity(mid.id, [{ credits: 8_000_000_000, at: 1000 }]);
    await insertActivity(old.id, [{ credits: 20_000_000_000, at: 40 * D }]);
    const res = await call(GET, "/admin/usage/top-users?limit=2", { session });
    expect(res.status).toBe(200);
    expect(topUsersSchema.parse(res.body)).toEqual(res.body);
    expect(res.body).toEqual({
      window: "30d",
      items: [
        { userId: big.id, email: big.email, name: "Big", credits: 10_000_000_000, count: 2 },
        { userId: mid.id, email: mid.email, name: "Mid", credits: 8_000_000_000, count: 1 },
      ],
    });
    const day = await call(GET, "/admin/usage/top-users?window=24h&limit=2", { session });
    expect(day.body.items.map((i: { userId: string; credits: number }) => [i.userId, i.credits])).toEqual([
      [big.id, 9_000_000_000],
      [mid.id, 8_000_000_000],
    ]);
    const year = await call(GET, "/admin/usage/top-users?window=365d&limit=1", { session });
    expect(year.body.items).toEqual([{ userId: old.id, email: old.email, name: "Old", credits: 20_000_000_000, count: 1 }]);
  });

  test.each([
    ["limit=0", ["limit"]],
    ["limit=201", ["limit"]],
    ["window=forever", ["window"]],
  ])("?%s → 400 invalid_query", async (qs, path) => {
    const session = await adminSession();
    const res = await call(GET, `/admin/usage/top-users?${qs}`, { session });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      success: false,
      error: "invalid_query",
      message: expect.any(String),
      issues: [{ path, message: expect.any(String) }],
    });
  });

  runAuthContract("GET /admin/usage/top-users", GET, "/admin/usage/top-users", "admin");
});

describe("GET /admin/users/{id}/usage", () => {
  test("the user's spend per window by model; ?windows= picks them; a missing user is 404", async () => {
    const session = await adminSession();
    const user = await createUser();
    await insertActivity(user.id, [
      { modelId: "m/a", credits: 40, at: 1000 },
      { modelId: "m/b", credits: 2, at: 3 * D },
    ]);
    const res = await call(USER_USAGE, "/", { session, params: { id: user.id } });
    expect(res.status).toBe(200);
    expect(adminUserUsageSchema.parse(res.body)).toEqual(res.body);
    expect(res.body).toEqual({
      windows: [
        { window: "24h", credits: 40, count: 1, byModel: [{ modelId: "m/a", credits: 40, count: 1 }] },
        {
          window: "7d",
          credits: 42,
          count: 2,
          byModel: [
            { modelId: "m/a", credits: 40, count: 1 },
            { modelId: "m/b", credits: 2, count: 1 },
          ],
        },
        {
          window: "30d",
          credits: 42,
          count: 2,
          byModel: [
            { modelId: "m/a", credits: 40, count: 1 },
            { modelId: "m/b", credits: 2, count: 1 },
          ],
        },
      ],
    });
    const picked = await call(USER_USAGE, "/?windows=1h", { session, params: { id: user.id } });
    expect(picked.body).toEqual({
      windows: [{ window: "1h", credits: 40, count: 1, byModel: [{ modelId: "m/a", credits: 40, count: 1 }] }],
    });
    const missing = await call(USER_USAGE, "/", { session, params: { id: "no-such-user" } });
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ success: false, error: "not_found", message: "User not found" });
    const bad = await call(USER_USAGE, "/?windows=3d", { session, params: { id: user.id } });
    expect(bad.status).toBe(400);
  });

  runAuthContract("GET /admin/users/{id}/usage", USER_USAGE, "/", "admin", (user) => ({ params: { id: user.id } }));
});
