import { describe, expect, test } from "vitest";
import { paymentListSchema, paymentResponse } from "@/lib/http/contracts/billing";
import { createActor } from "@/test/factories";
import { call } from "@/test/http";
import { balanceOf, payLocally, siteUrl } from "@/test/payments";
import { POST as TOPUP } from "../topup/route";
import { GET as GET_ONE } from "./[id]/route";
import { GET as RECEIPT } from "./[id]/receipt/route";
import { GET } from "./route";

async function topup(key: string, amountRub: number) {
  const res = await call(TOPUP, "/billing/topup", { key, body: { amountRub, returnUrl: siteUrl("/back") } });
  return res.body.payment as { id: string; paymentProviderId: string };
}

describe("success", () => {
  test("the list shows only the caller's payments, newest first, paged", async () => {
    const alice = await createActor();
    const bob = await createActor();
    const first = await topup(alice.key, 100);
    const second = await topup(alice.key, 200);
    await topup(bob.key, 300);
    const res = await call(GET, "/billing/payments?limit=1&offset=0", { key: alice.key });
    expect(res.status).toBe(200);
    expect(paymentListSchema.parse(res.body)).toEqual(res.body);
    expect(res.body).toMatchObject({ total: 2, limit: 1, offset: 0, items: [{ id: second.id, amountKopecks: 20_000 }] });
    const page2 = await call(GET, "/billing/payments?limit=1&offset=1", { key: alice.key });
    expect(page2.body.items.map((p: { id: string }) => p.id)).toEqual([first.id]);
  });

  test("GET by the provider's id re-reads a pending payment: paid at the provider, granted on return", async () => {
    const alice = await createActor();
    const payment = await topup(alice.key, 500);
    // Paid, but the notification never reached the app (APP_URL has nobody listening in tests).
    await payLocally(payment.paymentProviderId, "pay");
    const res = await call(GET_ONE, `/billing/payments/${payment.paymentProviderId}`, {
      key: alice.key,
      params: { id: payment.paymentProviderId },
    });
    expect(res.status).toBe(200);
    expect(paymentResponse.parse(res.body)).toEqual(res.body);
    expect(res.body.payment).toMatchObject({ id: payment.id, status: "succeeded" });
    expect(await balanceOf(alice.user.id)).toBe(5_000_000);
    // Our own id works too.
    const byOurs = await call(GET_ONE, "/", { key: alice.key, params: { id: payment.id } });
    expect(byOurs.body.payment.paymentProviderId).toBe(payment.paymentProviderId);
  });

  test("the receipt of a succeeded payment redirects to the printable receipt page", async () => {
    const alice = await createActor();
    const payment = await topup(alice.key, 500);
    await payLocally(payment.paymentProviderId, "pay");
    const res = await call(RECEIPT, "/", { key: alice.key, params: { id: payment.paymentProviderId } });
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe(`http://localhost:3000/dashboard/billing/receipts/${payment.id}`);
    expect(res.headers.get("x-request-id")).toEqual(expect.any(String));
  });
});

describe("not found", () => {
  const notFound = { success: false, error: "not_found", message: "Payment not found" };

  test("another user's payment is 404, exactly like a missing one", async () => {
    const alice = await createActor();
    const bob = await createActor();
    const payment = await topup(alice.key, 500);
    for (const id of [payment.id, payment.paymentProviderId, "pay_missing"]) {
      const res = await call(GET_ONE, "/", { key: bob.key, params: { id } });
      expect(res.status).toBe(404);
      expect(res.body).toEqual(notFound);
      const receipt = await call(RECEIPT, "/", { key: bob.key, params: { id } });
      expect(receipt.body).toEqual(notFound);
    }
  });

  test("a payment that has not succeeded has no receipt", async () => {
    const alice = await createActor();
    const payment = await topup(alice.key, 500);
    const res = await call(RECEIPT, "/", { key: alice.key, params: { id: payment.id } });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ success: false, error: "not_found", message: "This payment has no receipt: it has not succeeded" });
  });
});

describe("validation", () => {
  test("limit out of range → 400 invalid_query", async () => {
    const alice = await createActor();
    const res = await call(GET, "/billing/payments?limit=500", { key: alice.key });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: "invalid_query", issues: [{ path: ["limit"] }] });
  });
});
