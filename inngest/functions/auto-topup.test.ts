import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { getDb } from "@/db/client";
import { devMail, jobEvents, payments, users } from "@/db/schema";
import { grantCredits, reserveCredits } from "@/lib/billing/ledger/ledger";
import { startTestExecutor } from "@/lib/jobs/testing";
import { afterDebitSettled } from "@/lib/billing/payments/after-debit";
import { chargeAutoTopup } from "@/lib/billing/payments/auto-topup/charge";
import { createActor } from "@/test/factories";
import { call } from "@/test/http";
import { balanceOf, payLocally, setEnv, siteUrl } from "@/test/payments";
import { FakeYookassa } from "@/test/servers/yookassa";
import { PATCH as AUTO_TOPUP } from "@/app/(gateway)/me/auto-topup/route";
import { GET as GET_PAYMENT } from "@/app/(gateway)/billing/payments/[id]/route";
import { POST as TOPUP } from "@/app/(gateway)/billing/topup/route";

const RUB = 10_000;
let jobs: Awaited<ReturnType<typeof startTestExecutor>>;
let yookassa: FakeYookassa;
beforeAll(async () => {
  jobs = await startTestExecutor();
  yookassa = await FakeYookassa.start();
  setEnv({
    YOOKASSA_API_URL: yookassa.url,
    YOOKASSA_SHOP_ID: yookassa.shopId,
    YOOKASSA_SECRET_KEY: yookassa.secretKey,
    YOOKASSA_MAX_RETRIES: "0",
  });
});
afterAll(async () => {
  jobs.uninstall();
  await yookassa.stop();
});

/** A user who paid 500 ₽ with a saved card (through the local provider) and turned auto top-up on. */
async function userWithAutoTopup(options: { thresholdRub: number; amountRub: number; optOut?: boolean }) {
  const actor = await createActor({ lowBalanceEmailOptOut: options.optOut ?? false });
  const res = await call(TOPUP, "/billing/topup", {
    session: actor.session,
    body: { amountRub: 500, returnUrl: siteUrl("/back"), savePaymentMethod: true },
  });
  await payLocally(res.body.payment.paymentProviderId, "pay");
  await call(GET_PAYMENT, "/", { session: actor.session, params: { id: res.body.payment.id } });
  const settings = await call(AUTO_TOPUP, "/", {
    method: "PATCH",
    session: actor.session,
    body: { enabled: true, ...options, optOut: undefined },
  });
  expect(settings.status).toBe(200);
  expect(await balanceOf(actor.user.id)).toBe(500 * RUB);
  return actor;
}

let gen = 0;

async function reserve(userId: string, rub: number) {
  return reserveCredits(await getDb(), { userId, apiKeyId: null, generationId: `gen-${userId}-${gen++}`, credits: rub * RUB });
}

async function autoTopups(userId: string) {
  return (await getDb())
    .select()
    .from(payments)
    .where(and(eq(payments.userId, userId), eq(payments.kind, "auto_topup")));
}

async function mailsTo(email: string) {
  return (await getDb()).select().from(devMail).where(eq(devMail.to, email));
}

describe("auto top-up", () => {
  test("20 debits crossing the threshold at once trigger exactly one charge, and one low-balance e-mail", async () => {
    const alice = await userWithAutoTopup({ thresholdRub: 300, amountRub: 1000 });
    // 500 ₽ − 20 × 15 ₽ = 200 ₽: the 14th debit crosses 300 ₽, the six after it are below too.
    const moves = await Promise.all(Array.from({ length: 20 }, () => reserve(alice.user.id, 15)));
    expect(moves.every((m) => m.applied)).toBe(true);
    await afterDebitSettled();
    await jobs.drain();

    const charged = await autoTopups(alice.user.id);
    expect(charged).toMatchObject([
      { status: "succeeded", amountKopecks: 100_000, creditsToGrant: 1000 * RUB, grantedAt: expect.any(Date) },
    ]);
    expect(await balanceOf(alice.user.id)).toBe((200 + 1000) * RUB);
    const db = await getDb();
    const events = await db.select().from(jobEvents).where(eq(jobEvents.name, "billing/auto-topup.requested"));
    expect(events.filter((e) => e.payload.data.userId === alice.user.id)).toHaveLength(1);
    expect(await mailsTo(alice.user.email!)).toMatchObject([
      { subject: "Your Generation Gateway balance is low", text: expect.stringContaining("below 300 ₽") },
    ]);

    // Back above the threshold, the next drop is a new crossing: one more charge, one more mail.
    await Promise.all(Array.from({ length: 5 }, () => reserve(alice.user.id, 200)));
    await afterDebitSettled();
    await jobs.drain();
    expect((await autoTopups(alice.user.id)).map((p) => p.status)).toEqual(["succeeded", "succeeded"]);
    expect(await balanceOf(alice.user.id)).toBe((200 + 1000 - 1000 + 1000) * RUB);
    expect(await mailsTo(alice.user.email!)).toHaveLength(2);
  });

  test("debits that stay above the threshold do nothing", async () => {
    const bob = await userWithAutoTopup({ thresholdRub: 100, amountRub: 500 });
    await Promise.all(Array.from({ length: 5 }, () => reserve(bob.user.id, 50)));
    await afterDebitSettled();
    await jobs.drain();
    expect(await autoTopups(bob.user.id)).toEqual([]);
    expect(await mailsTo(bob.user.email!)).toEqual([]);
  });

  test("the opt-out stops the e-mail, not the top-up", async () => {
    const carol = await userWithAutoTopup({ thresholdRub: 400, amountRub: 500, optOut: true });
    await reserve(carol.user.id, 200);
    await afterDebitSettled();
    await jobs.drain();
    expect(await autoTopups(carol.user.id)).toHaveLength(1);
    expect(await mailsTo(carol.user.email!)).toEqual([]);
  });

  test("concurrent charges for one user make one payment (the in-flight index and the re-check)", async () => {
    const dave = await userWithAutoTopup({ thresholdRub: 600, amountRub: 500 });
    const outcomes = await Promise.all(Array.from({ length: 5 }, async () => chargeAutoTopup(await getDb(), dave.user.id)));
    expect(outcomes.filter((o) => o.charged)).toHaveLength(1);
    expect(await autoTopups(dave.user.id)).toMatchObject([{ status: "succeeded" }]);
    expect(await balanceOf(dave.user.id)).toBe(1000 * RUB);
  });

  test("without a saved card nothing is charged; without auto top-up only the e-mail goes out", async () => {
    const erin = await createActor();
    const db = await getDb();
    await grantCredits(db, { userId: erin.user.id, credits: 150 * RUB, type: "grant", idempotencyKey: `grant:${erin.user.id}` });
    await call(AUTO_TOPUP, "/", { method: "PATCH", session: erin.session, body: { enabled: true, thresholdRub: 100, amountRub: 500 } });
    expect(await chargeAutoTopup(db, erin.user.id)).toEqual({ charged: false, reason: "balance_recovered" });
    await reserve(erin.user.id, 100);
    await afterDebitSettled();
    await jobs.drain();
    expect(await chargeAutoTopup(db, erin.user.id)).toEqual({ charged: false, reason: "no_payment_method" });
    expect(await autoTopups(erin.user.id)).toEqual([]);

    const frank = await createActor();
    await grantCredits(db, { userId: frank.user.id, credits: 150 * RUB, type: "grant", idempotencyKey: `grant:${frank.user.id}` });
    await reserve(frank.user.id, 100); // 50 ₽ left, under LOW_BALANCE_EMAIL_THRESHOLD_RUB (100 ₽)
    await reserve(frank.user.id, 10);
    await afterDebitSettled();
    await jobs.drain();
    expect(await mailsTo(frank.user.email!)).toHaveLength(1);
    const [row] = await db.select({ optOut: users.lowBalanceEmailOptOut }).from(users).where(eq(users.id, frank.user.id));
    expect(row!.optOut).toBe(false);
  });

  test("yookassa: a charge that fails with 5xx is retried by the function with the same Idempotence-Key; the card is charged once", async () => {
    setEnv({ PAYMENT_PROVIDER: "yookassa" });
    try {
      const gina = await createActor();
      const first = await call(TOPUP, "/billing/topup", {
        session: gina.session,
        body: { amountRub: 500, returnUrl: siteUrl("/back"), savePaymentMethod: true },
      });
      yookassa.succeed(first.body.payment.paymentProviderId, { last4: "8888", brand: "Mir" });
      await call(GET_PAYMENT, "/", { session: gina.session, params: { id: first.body.payment.id } });
      expect(await balanceOf(gina.user.id)).toBe(500 * RUB);
      await call(AUTO_TOPUP, "/", { method: "PATCH", session: gina.session, body: { enabled: true, thresholdRub: 400, amountRub: 300 } });

      yookassa.failNext("create", { status: 503 });
      const before = yookassa.calls.length;
      await reserve(gina.user.id, 150);
      await afterDebitSettled();
      await jobs.drain();
      const [pending] = await autoTopups(gina.user.id);
      expect(pending).toMatchObject({ status: "pending", paymentProviderId: null, provider: "yookassa" });

      await jobs.advance("10m"); // the function's retry
      const charges = yookassa.calls.slice(before).filter((c) => c.route === "create");
      expect(charges.map((c) => c.headers["idempotence-key"])).toEqual([pending!.id, pending!.id]);
      expect(charges[1]!.body).toMatchObject({ amount: { value: "300.00" }, payment_method_id: expect.any(String) });
      expect(await autoTopups(gina.user.id)).toMatchObject([
        { id: pending!.id, status: "succeeded", paymentProviderId: expect.any(String) },
      ]);
      expect(await balanceOf(gina.user.id)).toBe((500 - 150 + 300) * RUB);
    } finally {
      setEnv({ PAYMENT_PROVIDER: undefined });
    }
  });
});
