import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { getDb } from "@/db/client";
import { inboundEvents, paymentMethods } from "@/db/schema";
import { notificationResult } from "@/lib/http/contracts/billing";
import { localPaymentSecret } from "@/simulators/local-payments/secret";
import { createActor } from "@/test/factories";
import { call } from "@/test/http";
import { balanceOf, ledgerOf, payLocally, paymentRow, setEnv, siteUrl } from "@/test/payments";
import { serveRoutes } from "@/test/servers/app-route";
import { FakeYookassa } from "@/test/servers/yookassa";
import { POST as TOPUP } from "../../../billing/topup/route";
import { POST } from "./route";

const YOOKASSA_IP = "185.71.76.10";
let app: Awaited<ReturnType<typeof serveRoutes>>;
let yookassa: FakeYookassa;

beforeAll(async () => {
  app = await serveRoutes({ "/webhooks/yookassa/notify": POST });
  yookassa = await FakeYookassa.start();
  setEnv({ APP_URL: app.url, YOOKASSA_API_URL: yookassa.url, YOOKASSA_SHOP_ID: yookassa.shopId, YOOKASSA_SECRET_KEY: yookassa.secretKey });
});
afterAll(async () => {
  await app.stop();
  await yookassa.stop();
});

async function topup(session: string, amountRub = 500, extra: Record<string, unknown> = {}) {
  const res = await call(TOPUP, "/billing/topup", { session, body: { amountRub, returnUrl: siteUrl("/dashboard/billing"), ...extra } });
  expect(res.status).toBe(201);
  return res.body.payment as { id: string; paymentProviderId: string };
}

const local = (body: unknown, secret = localPaymentSecret()) =>
  call(POST, "/webhooks/yookassa/notify", { body, headers: { authorization: `Bearer ${secret}` } });
const fromYookassa = (body: unknown, ip = YOOKASSA_IP) => call(POST, "/webhooks/yookassa/notify", { body, socket: ip });
const succeeded = (id: string, value = "500.00") => ({
  type: "notification",
  event: "payment.succeeded",
  object: { id, status: "succeeded", amount: { value, currency: "RUB" } },
});

describe("success", () => {
  test("the local confirmation page's notification grants once; the same notification 5× at once grants nothing more", async () => {
    const alice = await createActor();
    const payment = await topup(alice.session, 500, { savePaymentMethod: true });
    // Paying on the confirmation page makes the local provider POST its notification to the app.
    expect(await payLocally(payment.paymentProviderId, "pay")).toEqual({ returnUrl: siteUrl("/dashboard/billing"), status: "succeeded" });
    expect(await paymentRow(payment.id)).toMatchObject({ status: "succeeded", grantedAt: expect.any(Date) });
    expect(await balanceOf(alice.user.id)).toBe(5_000_000);

    const replies = await Promise.all(Array.from({ length: 5 }, () => local(succeeded(payment.paymentProviderId))));
    for (const r of replies) {
      expect(r.status).toBe(200);
      expect(notificationResult.parse(r.body)).toEqual({ ok: true, processed: false, reason: "already_succeeded", deduped: true });
    }
    expect(await balanceOf(alice.user.id)).toBe(5_000_000);
    const ledger = await ledgerOf(alice.user.id);
    expect(ledger).toMatchObject([
      { type: "topup", amount: 5_000_000, balanceAfter: 5_000_000, paymentId: payment.id, idempotencyKey: `payment:${payment.id}` },
    ]);
    // The saved card is the user's first, so the default.
    const methods = await (await getDb()).select().from(paymentMethods).where(eq(paymentMethods.userId, alice.user.id));
    expect(methods).toMatchObject([{ provider: "local", cardLast4: "4242", cardBrand: "Visa", isDefault: true }]);
  });

  test("five concurrent first deliveries: exactly one is processed, the credits are granted once", async () => {
    setEnv({ PAYMENT_PROVIDER: "yookassa" });
    try {
      const alice = await createActor();
      const payment = await topup(alice.session, 300);
      yookassa.succeed(payment.paymentProviderId);
      const replies = await Promise.all(Array.from({ length: 5 }, () => fromYookassa(yookassa.notification(payment.paymentProviderId))));
      expect(replies.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
      const bodies = replies.map((r) => notificationResult.parse(r.body));
      // One delivery recorded the event first; one (not necessarily the same) won the grant.
      expect(bodies.filter((b) => !b.deduped)).toHaveLength(1);
      expect(bodies.filter((b) => b.processed)).toEqual([{ ok: true, processed: true, reason: null, deduped: expect.any(Boolean) }]);
      expect(bodies.filter((b) => !b.processed)).toEqual(
        Array(4).fill({ ok: true, processed: false, reason: "already_succeeded", deduped: expect.any(Boolean) }),
      );
      expect(await balanceOf(alice.user.id)).toBe(3_000_000);
      expect(await ledgerOf(alice.user.id)).toHaveLength(1);
      // Every delivery was checked against the provider's API, never trusted on its body.
      expect(yookassa.calls.filter((c) => c.route === "get" && c.path.endsWith(payment.paymentProviderId)).length).toBeGreaterThanOrEqual(
        1,
      );
      const [event] = await (
        await getDb()
      )
        .select()
        .from(inboundEvents)
        .where(eq(inboundEvents.externalId, `payment.succeeded:${payment.paymentProviderId}`));
      expect(event).toMatchObject({ source: "yookassa", handledAt: expect.any(Date), result: { processed: true } });
    } finally {
      setEnv({ PAYMENT_PROVIDER: undefined });
    }
  });

  test("a canceled notification arriving after succeeded changes nothing", async () => {
    const alice = await createActor();
    const payment = await topup(alice.session);
    await payLocally(payment.paymentProviderId, "pay");
    const late = await local({
      type: "notification",
      event: "payment.canceled",
      object: { id: payment.paymentProviderId, status: "canceled" },
    });
    expect(late.body).toEqual({ ok: true, processed: false, reason: "already_succeeded", deduped: false });
    expect(await paymentRow(payment.id)).toMatchObject({ status: "succeeded", cancellationReason: null });
    expect(await balanceOf(alice.user.id)).toBe(5_000_000);
    // Not asked to save the card: no payment method.
    expect(await (await getDb()).select().from(paymentMethods).where(eq(paymentMethods.userId, alice.user.id))).toEqual([]);
  });

  test("a declined payment is canceled and grants nothing", async () => {
    const alice = await createActor();
    const payment = await topup(alice.session);
    await payLocally(payment.paymentProviderId, "decline");
    expect(await paymentRow(payment.id)).toMatchObject({ status: "canceled", cancellationReason: "canceled_by_user", grantedAt: null });
    expect(await balanceOf(alice.user.id)).toBe(0);
    // A forged "succeeded" for it afterwards: the provider says canceled, nothing changes.
    const forged = await local(succeeded(payment.paymentProviderId));
    expect(forged.body).toEqual({ ok: true, processed: false, reason: "already_canceled", deduped: false });
    expect(await ledgerOf(alice.user.id)).toEqual([]);
  });

  test("events other than payments are acknowledged and ignored", async () => {
    const res = await local({ type: "notification", event: "refund.succeeded", object: { id: "r1" } });
    expect(res.body).toEqual({ ok: true, processed: false, reason: "ignored_event", deduped: false });
  });
});

describe("forged notifications grant nothing", () => {
  test("a wrong local secret → 401 invalid_signature", async () => {
    const alice = await createActor();
    const payment = await topup(alice.session);
    const res = await local(succeeded(payment.paymentProviderId), "not-the-secret");
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ success: false, error: "invalid_signature", message: "The notification's credentials are not valid" });
    expect(await paymentRow(payment.id)).toMatchObject({ status: "pending" });
  });

  test("no credentials from outside the provider's address ranges → 401 invalid_signature", async () => {
    const res = await fromYookassa(succeeded("anything"), "203.0.113.9");
    expect(res.status).toBe(401);
    expect(res.body).toEqual({
      success: false,
      error: "invalid_signature",
      message: "The notification does not come from the payment provider",
    });
  });

  test("an unknown payment → processed:false unknown_payment", async () => {
    const res = await local(succeeded("lp_00000000-0000-0000-0000-000000000000"));
    expect(res.body).toEqual({ ok: true, processed: false, reason: "unknown_payment", deduped: false });
  });

  test("an amount that is not the payment's → processed:false amount_mismatch, nothing granted", async () => {
    const alice = await createActor();
    const payment = await topup(alice.session, 500);
    const res = await local(succeeded(payment.paymentProviderId, "50000.00"));
    expect(res.body).toEqual({ ok: true, processed: false, reason: "amount_mismatch", deduped: false });
    expect(await paymentRow(payment.id)).toMatchObject({ status: "pending" });
    expect(await balanceOf(alice.user.id)).toBe(0);
  });

  test("'succeeded' for a payment the provider still has pending → processed:false still_pending", async () => {
    const alice = await createActor();
    const payment = await topup(alice.session);
    const res = await local(succeeded(payment.paymentProviderId));
    expect(res.body).toEqual({ ok: true, processed: false, reason: "still_pending", deduped: false });
    expect(await balanceOf(alice.user.id)).toBe(0);
  });

  test("a YooKassa notification for a payment its API does not know → unknown_at_provider", async () => {
    setEnv({ PAYMENT_PROVIDER: "yookassa" });
    try {
      const alice = await createActor();
      const payment = await topup(alice.session);
      yookassa.payments.delete(payment.paymentProviderId);
      const res = await fromYookassa(succeeded(payment.paymentProviderId));
      expect(res.body).toEqual({ ok: true, processed: false, reason: "unknown_at_provider", deduped: false });
      expect(await balanceOf(alice.user.id)).toBe(0);
    } finally {
      setEnv({ PAYMENT_PROVIDER: undefined });
    }
  });

  test("the provider's API failing → 502 payment_provider, so the provider redelivers; nothing granted", async () => {
    setEnv({ PAYMENT_PROVIDER: "yookassa", YOOKASSA_MAX_RETRIES: "0" });
    try {
      const alice = await createActor();
      const payment = await topup(alice.session);
      yookassa.succeed(payment.paymentProviderId);
      yookassa.failNext("get", { status: 503 });
      const res = await fromYookassa(yookassa.notification(payment.paymentProviderId));
      expect(res.status).toBe(502);
      expect(res.body).toEqual({ success: false, error: "payment_provider", message: expect.stringContaining("YooKassa answered 503") });
      expect(await balanceOf(alice.user.id)).toBe(0);
      // The redelivery is deduped but still handled.
      const again = await fromYookassa(yookassa.notification(payment.paymentProviderId));
      expect(again.body).toEqual({ ok: true, processed: true, reason: null, deduped: true });
      expect(await balanceOf(alice.user.id)).toBe(5_000_000);
    } finally {
      setEnv({ PAYMENT_PROVIDER: undefined, YOOKASSA_MAX_RETRIES: undefined });
    }
  });
});

describe("validation", () => {
  test.each([
    ["no event", { object: { id: "x" } }, ["event"]],
    ["no object id", { event: "payment.succeeded", object: {} }, ["object", "id"]],
  ])("%s → 400 invalid_body", async (_, body, path) => {
    const res = await local(body);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      success: false,
      error: "invalid_body",
      message: expect.any(String),
      issues: [{ path, message: expect.any(String) }],
    });
  });
});

describe("limits", () => {
  test("more than RATE_LIMIT_WEBHOOK_IP_PER_MINUTE from one address → 429 rate_limited", async () => {
    setEnv({ RATE_LIMIT_WEBHOOK_IP_PER_MINUTE: "3" });
    try {
      const ip = "185.71.77.20";
      const statuses = [];
      for (let i = 0; i < 4; i++) statuses.push((await fromYookassa({ event: "refund.succeeded", object: { id: `r${i}` } }, ip)).status);
      expect(statuses).toEqual([200, 200, 200, 429]);
    } finally {
      setEnv({ RATE_LIMIT_WEBHOOK_IP_PER_MINUTE: undefined });
    }
  });
});
