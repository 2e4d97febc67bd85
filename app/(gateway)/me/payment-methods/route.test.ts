import { eq } from "drizzle-orm";
import { describe, expect, test } from "vitest";
import { getDb } from "@/db/client";
import { autoTopupSettings, paymentMethods } from "@/db/schema";
import { autoTopupResponse, paymentMethodListSchema, paymentMethodResponse } from "@/lib/http/contracts/payment-methods";
import { createActor } from "@/test/factories";
import { call } from "@/test/http";
import { PATCH as AUTO_TOPUP } from "../auto-topup/route";
import { POST as DEFAULT } from "./[id]/default/route";
import { DELETE } from "./[id]/route";
import { GET } from "./route";

let n = 0;
async function card(userId: string, isDefault: boolean, last4: string) {
  const [row] = await (
    await getDb()
  )
    .insert(paymentMethods)
    .values({
      id: `pm_t${n++}`,
      userId,
      provider: "local",
      providerMethodId: `lpm_t${n}`,
      cardLast4: last4,
      cardBrand: "Visa",
      isDefault,
      createdAt: new Date(Date.now() + n),
    })
    .returning();
  return row!;
}

const notFound = { success: false, error: "not_found", message: "Payment method not found" };

describe("success", () => {
  test("lists the caller's cards, the default first", async () => {
    const alice = await createActor();
    const bob = await createActor();
    const a1 = await card(alice.user.id, true, "1111");
    const a2 = await card(alice.user.id, false, "2222");
    await card(bob.user.id, true, "9999");
    const res = await call(GET, "/me/payment-methods", { session: alice.session });
    expect(res.status).toBe(200);
    expect(paymentMethodListSchema.parse(res.body)).toEqual(res.body);
    expect(res.body.items).toEqual([
      { id: a1.id, cardLast4: "1111", cardBrand: "Visa", isDefault: true, createdAt: a1.createdAt.toISOString() },
      { id: a2.id, cardLast4: "2222", cardBrand: "Visa", isDefault: false, createdAt: a2.createdAt.toISOString() },
    ]);
  });

  test("making another card the default moves the flag (one default per user)", async () => {
    const alice = await createActor();
    const a1 = await card(alice.user.id, true, "1111");
    const a2 = await card(alice.user.id, false, "2222");
    const res = await call(DEFAULT, "/", { method: "POST", session: alice.session, params: { id: a2.id } });
    expect(res.status).toBe(200);
    expect(paymentMethodResponse.parse(res.body)).toEqual(res.body);
    expect(res.body.method).toMatchObject({ id: a2.id, isDefault: true });
    const rows = await (await getDb()).select().from(paymentMethods).where(eq(paymentMethods.userId, alice.user.id));
    expect(Object.fromEntries(rows.map((r) => [r.id, r.isDefault]))).toEqual({ [a1.id]: false, [a2.id]: true });
  });

  test("deleting the default promotes the newest remaining card", async () => {
    const alice = await createActor();
    const a1 = await card(alice.user.id, true, "1111");
    await card(alice.user.id, false, "2222");
    const a3 = await card(alice.user.id, false, "3333");
    const res = await call(DELETE, "/", { method: "DELETE", session: alice.session, params: { id: a1.id } });
    expect(res.status).toBe(204);
    const rows = await (await getDb()).select().from(paymentMethods).where(eq(paymentMethods.isDefault, true));
    expect(rows.filter((r) => r.userId === alice.user.id).map((r) => r.id)).toEqual([a3.id]);
  });

  test("PATCH /me/auto-topup stores the settings", async () => {
    const alice = await createActor();
    const res = await call(AUTO_TOPUP, "/me/auto-topup", {
      method: "PATCH",
      session: alice.session,
      body: { enabled: true, thresholdRub: 200, amountRub: 1000 },
    });
    expect(res.status).toBe(200);
    expect(autoTopupResponse.parse(res.body)).toEqual(res.body);
    expect(res.body).toEqual({ enabled: true, thresholdRub: 200, amountRub: 1000 });
    const again = await call(AUTO_TOPUP, "/me/auto-topup", {
      method: "PATCH",
      session: alice.session,
      body: { enabled: false, thresholdRub: 50, amountRub: 500 },
    });
    expect(again.body).toEqual({ enabled: false, thresholdRub: 50, amountRub: 500 });
    const [row] = await (await getDb()).select().from(autoTopupSettings).where(eq(autoTopupSettings.userId, alice.user.id));
    expect(row).toMatchObject({ enabled: false, thresholdRub: 50, amountRub: 500 });
  });
});

describe("not found", () => {
  test("another user's card is 404 for default and delete, exactly like a missing one, and stays untouched", async () => {
    const alice = await createActor();
    const bob = await createActor();
    const a1 = await card(alice.user.id, false, "1111");
    for (const id of [a1.id, "pm_missing"]) {
      expect((await call(DEFAULT, "/", { method: "POST", session: bob.session, params: { id } })).body).toEqual(notFound);
      const del = await call(DELETE, "/", { method: "DELETE", session: bob.session, params: { id } });
      expect(del.status).toBe(404);
      expect(del.body).toEqual(notFound);
    }
    const [row] = await (await getDb()).select().from(paymentMethods).where(eq(paymentMethods.id, a1.id));
    expect(row).toMatchObject({ isDefault: false });
  });
});

describe("validation", () => {
  test("an auto top-up amount below MIN_TOPUP_RUB → 400 minimum_topup", async () => {
    const alice = await createActor();
    const res = await call(AUTO_TOPUP, "/", {
      method: "PATCH",
      session: alice.session,
      body: { enabled: true, thresholdRub: 10, amountRub: 50 },
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      success: false,
      error: "minimum_topup",
      message: "An automatic top-up is at least 100 ₽",
      recovery: { action: "topup", url: "/billing/topup", minAmountRub: 100 },
    });
  });

  test.each([
    ["a negative threshold", { enabled: true, thresholdRub: -1, amountRub: 500 }, ["thresholdRub"]],
    ["no enabled", { thresholdRub: 1, amountRub: 500 }, ["enabled"]],
  ])("%s → 400 invalid_body", async (_, body, path) => {
    const alice = await createActor();
    const res = await call(AUTO_TOPUP, "/", { method: "PATCH", session: alice.session, body });
    expect(res.body).toEqual({
      success: false,
      error: "invalid_body",
      message: expect.any(String),
      issues: [{ path, message: expect.any(String) }],
    });
  });
});

describe("auth", () => {
  test("cards and auto top-up are dashboard-only: an API key gets 403 forbidden", async () => {
    const alice = await createActor();
    const a1 = await card(alice.user.id, true, "1111");
    const replies = [
      await call(GET, "/", { key: alice.key }),
      await call(DEFAULT, "/", { method: "POST", key: alice.key, params: { id: a1.id } }),
      await call(DELETE, "/", { method: "DELETE", key: alice.key, params: { id: a1.id } }),
      await call(AUTO_TOPUP, "/", { method: "PATCH", key: alice.key, body: { enabled: true, thresholdRub: 1, amountRub: 500 } }),
    ];
    for (const r of replies) {
      expect(r.status).toBe(403);
      expect(r.body).toMatchObject({ success: false, error: "forbidden" });
    }
    expect((await call(GET, "/")).status).toBe(401);
  });
});
