import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { getDb } from "@/db/client";
import { localProviderPayments, payments } from "@/db/schema";
import { topupResponse } from "@/lib/http/contracts/billing";
import { createActor } from "@/test/factories";
import { call } from "@/test/http";
import { balanceOf, ledgerOf, paymentRow, setEnv, siteUrl } from "@/test/payments";
import { FakeYookassa } from "@/test/servers/yookassa";
import { POST } from "./route";

let yookassa: FakeYookassa;
beforeAll(async () => {
  yookassa = await FakeYookassa.start();
  setEnv({
    YOOKASSA_API_URL: yookassa.url,
    YOOKASSA_SHOP_ID: yookassa.shopId,
    YOOKASSA_SECRET_KEY: yookassa.secretKey,
    YOOKASSA_MAX_RETRIES: "1",
  });
});
afterAll(() => yookassa.stop());

const body = { amountRub: 500, returnUrl: siteUrl("/dashboard/billing") };

describe("success", () => {
  test("local provider: 201 {payment, confirmationUrl} pointing at the in-app confirmation page; nothing granted yet", async () => {
    const alice = await createActor();
    const res = await call(POST, "/billing/topup", { key: alice.key, body });
    expect(res.status).toBe(201);
    expect(topupResponse.parse(res.body)).toEqual(res.body);
    const { payment, confirmationUrl } = res.body;
    expect(payment).toEqual({
      id: expect.stringMatching(/^pay_/),
      paymentProviderId: expect.stringMatching(/^lp_/),
      status: "pending",
      kind: "topup",
      creditsToGrant: 5_000_000,
      amountKopecks: 50_000,
      currency: "RUB",
      description: "Balance top-up, 500 ₽",
      cancellationReason: null,
      createdAt: expect.any(String),
    });
    expect(confirmationUrl).toBe(`http://localhost:3000/pay/local/${payment.paymentProviderId}`);
    expect(await paymentRow(payment.id)).toMatchObject({
      userId: alice.user.id,
      provider: "local",
      idempotenceKey: payment.id,
      returnUrl: body.returnUrl,
    });
    const [remote] = await (
      await getDb()
    )
      .select()
      .from(localProviderPayments)
      .where(eq(localProviderPayments.id, payment.paymentProviderId));
    expect(remote).toMatchObject({
      status: "pending",
      amountKopecks: 50_000,
      idempotenceKey: payment.id,
      metadata: { paymentId: payment.id, userId: alice.user.id },
    });
    expect(await balanceOf(alice.user.id)).toBe(0);
  });

  test("yookassa: the payment is created at the provider with our id as Idempotence-Key and metadata", async () => {
    setEnv({ PAYMENT_PROVIDER: "yookassa" });
    try {
      const alice = await createActor();
      const res = await call(POST, "/billing/topup", {
        session: alice.session,
        body: { ...body, amountRub: 1000, savePaymentMethod: true },
      });
      expect(res.status).toBe(201);
      const { payment, confirmationUrl } = res.body;
      expect(confirmationUrl).toContain(payment.paymentProviderId);
      const create = yookassa.calls.at(-1)!;
      expect(create.headers["idempotence-key"]).toBe(payment.id);
      expect(create.body).toMatchObject({
        amount: { value: "1000.00", currency: "RUB" },
        save_payment_method: true,
        metadata: { paymentId: payment.id, userId: alice.user.id },
      });
    } finally {
      setEnv({ PAYMENT_PROVIDER: undefined });
    }
  });
});

describe("provider failure", () => {
  test("yookassa answering 5xx → 502 payment_provider; the payment is closed and nothing is granted", async () => {
    setEnv({ PAYMENT_PROVIDER: "yookassa" });
    try {
      const alice = await createActor();
      yookassa.failNext("create", { status: 500 }, { status: 503 });
      const res = await call(POST, "/billing/topup", { key: alice.key, body });
      expect(res.status).toBe(502);
      expect(res.body).toEqual({
        success: false,
        error: "payment_provider",
        message:
          "The payment provider failed: YooKassa answered 503 (internal_server_error: Scripted failure). Nothing was charged; try again.",
      });
      const rows = await (await getDb()).select().from(payments).where(eq(payments.userId, alice.user.id));
      expect(rows).toMatchObject([{ status: "canceled", cancellationReason: "provider_error", paymentProviderId: null, grantedAt: null }]);
      expect(await balanceOf(alice.user.id)).toBe(0);
      expect(await ledgerOf(alice.user.id)).toEqual([]);
    } finally {
      setEnv({ PAYMENT_PROVIDER: undefined });
    }
  });
});

describe("validation", () => {
  test("below MIN_TOPUP_RUB → 400 minimum_topup with the minimum", async () => {
    const alice = await createActor();
    const res = await call(POST, "/billing/topup", { key: alice.key, body: { ...body, amountRub: 99 } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      success: false,
      error: "minimum_topup",
      message: "The smallest top-up is 100 ₽",
      recovery: { action: "topup", url: "/billing/topup", minAmountRub: 100 },
    });
    expect(await (await getDb()).select().from(payments).where(eq(payments.userId, alice.user.id))).toEqual([]);
  });

  test.each([
    ["no amount", { returnUrl: body.returnUrl }, ["amountRub"]],
    ["a fractional amount", { ...body, amountRub: 150.5 }, ["amountRub"]],
    ["no returnUrl", { amountRub: 500 }, ["returnUrl"]],
    ["a javascript: returnUrl", { amountRub: 500, returnUrl: "javascript:alert(1)" }, ["returnUrl"]],
  ])("%s → 400 invalid_body", async (_, bad, path) => {
    const alice = await createActor();
    const res = await call(POST, "/billing/topup", { key: alice.key, body: bad });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      success: false,
      error: "invalid_body",
      message: expect.any(String),
      issues: [{ path, message: expect.any(String) }],
    });
  });
});

describe("auth", () => {
  test("no key or session → 401 unauthorized", async () => {
    const res = await call(POST, "/billing/topup", { body });
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ success: false, error: "unauthorized" });
  });
});
