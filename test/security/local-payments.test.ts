import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { POST as TOPUP } from "@/app/(gateway)/billing/topup/route";
import { POST as NOTIFY } from "@/app/(gateway)/webhooks/yookassa/notify/route";
import { POST as DECIDE } from "@/app/(site)/pay/local/[id]/[outcome]/route";
import { getDb } from "@/db/client";
import { localProviderPayments, paymentMethods, payments } from "@/db/schema";
import { EnvError, parseEnv } from "@/lib/core/env";
import { createActor } from "@/test/factories";
import { call } from "@/test/http";
import { balanceOf, ledgerOf, paymentRow, setEnv, siteUrl } from "@/test/payments";
import { serveRoutes } from "@/test/servers/app-route";

/**
 * Issue 19 item 2: free credits through the local payment provider. Its confirmation page
 * (/pay/local/{id}, buttons posting to /pay/local/{id}/pay|decline) acts only for the signed-in
 * owner of the payment; production refuses to start with it unless ALLOW_LOCAL_PAYMENTS=true; and
 * a top-up's returnUrl must be on APP_URL's origin.
 */

let app: Awaited<ReturnType<typeof serveRoutes>>;
beforeAll(async () => {
  // The local provider notifies the app over HTTP at APP_URL, as YooKassa would.
  app = await serveRoutes({ "/webhooks/yookassa/notify": NOTIFY });
  setEnv({ APP_URL: app.url });
});
afterAll(async () => {
  setEnv({ APP_URL: undefined });
  await app.stop();
});

async function topup(session: string) {
  const res = await call(TOPUP, "/billing/topup", {
    session,
    body: { amountRub: 100, returnUrl: siteUrl("/dashboard/billing"), savePaymentMethod: true },
  });
  expect(res.status).toBe(201);
  return res.body.payment as { id: string; paymentProviderId: string };
}

const decide = (id: string, outcome: "pay" | "decline", auth: { session?: string; key?: string } = {}) =>
  call(DECIDE, `/pay/local/${id}/${outcome}`, {
    method: "POST",
    params: { id, outcome },
    headers: { "sec-fetch-site": "same-origin" },
    ...auth,
  });

const NOT_FOUND = { success: false, error: "not_found", message: "Payment not found" };

async function expectUntouched(payment: { id: string; paymentProviderId: string }, ownerId: string) {
  const [remote] = await (
    await getDb()
  )
    .select()
    .from(localProviderPayments)
    .where(eq(localProviderPayments.id, payment.paymentProviderId));
  expect(remote).toMatchObject({ status: "pending", paymentMethodId: null });
  expect(await paymentRow(payment.id)).toMatchObject({ status: "pending", grantedAt: null });
  expect(await balanceOf(ownerId)).toBe(0);
  expect(await (await getDb()).select().from(paymentMethods).where(eq(paymentMethods.userId, ownerId))).toEqual([]);
}

describe("the confirmation page acts only for the payment's owner", () => {
  test("anonymous, another user, and the owner's API key are 404, exactly like an unknown id; nothing is paid or declined", async () => {
    const alice = await createActor();
    const bob = await createActor();
    const payment = await topup(alice.session);
    for (const outcome of ["pay", "decline"] as const) {
      for (const auth of [{}, { session: bob.session }, { key: bob.key }, { key: alice.key }]) {
        const res = await decide(payment.paymentProviderId, outcome, auth);
        expect(res.status).toBe(404);
        expect(res.body).toEqual(NOT_FOUND);
      }
    }
    expect((await decide("lp_does_not_exist", "pay", { session: alice.session })).body).toEqual(NOT_FOUND);
    await expectUntouched(payment, alice.user.id);
  });

  test("the owner's session pays once: 303 back to the shop, credits granted once, the card saved", async () => {
    const alice = await createActor();
    const payment = await topup(alice.session);
    const paid = await decide(payment.paymentProviderId, "pay", { session: alice.session });
    expect(paid.status).toBe(303);
    expect(paid.headers.get("location")).toBe(siteUrl("/dashboard/billing"));
    expect(await paymentRow(payment.id)).toMatchObject({ status: "succeeded", grantedAt: expect.any(Date) });
    expect(await balanceOf(alice.user.id)).toBe(1_000_000);
    // A second click (or a decline after it) changes nothing.
    expect((await decide(payment.paymentProviderId, "decline", { session: alice.session })).status).toBe(303);
    expect(await ledgerOf(alice.user.id)).toHaveLength(1);
    expect(await (await getDb()).select().from(paymentMethods).where(eq(paymentMethods.userId, alice.user.id))).toMatchObject([
      { cardLast4: "4242" },
    ]);
  });

  test("the owner's cookie from another site is refused (CSRF)", async () => {
    const alice = await createActor();
    const payment = await topup(alice.session);
    const res = await call(DECIDE, `/pay/local/${payment.paymentProviderId}/pay`, {
      method: "POST",
      params: { id: payment.paymentProviderId, outcome: "pay" },
      session: alice.session,
      headers: { "sec-fetch-site": "cross-site", origin: "https://evil.example" },
    });
    expect(res.status).toBe(403);
    await expectUntouched(payment, alice.user.id);
  });
});

describe("a top-up's returnUrl is on this site", () => {
  test.each([
    ["another site", "https://evil.example/phish"],
    ["this host on another port", "http://127.0.0.1:1/dashboard/billing"],
    ["this site over another scheme", "https://127.0.0.1/dashboard/billing"],
  ])("%s → 400 invalid_body on returnUrl, no payment made", async (_, returnUrl) => {
    const alice = await createActor();
    const res = await call(TOPUP, "/billing/topup", { session: alice.session, body: { amountRub: 100, returnUrl } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      success: false,
      error: "invalid_body",
      message: "returnUrl: must be on this site (APP_URL's origin)",
      issues: [{ path: ["returnUrl"], message: "must be on this site (APP_URL's origin)" }],
    });
    expect(await (await getDb()).select().from(payments).where(eq(payments.userId, alice.user.id))).toEqual([]);
  });
});

describe("production refuses to start with the local provider unless told it is a demo", () => {
  const refusal = (vars: Record<string, string>) => {
    try {
      parseEnv(vars);
      return null;
    } catch (err) {
      expect(err).toBeInstanceOf(EnvError);
      return (err as EnvError).problems;
    }
  };
  const named = [expect.stringMatching(/^ALLOW_LOCAL_PAYMENTS: PAYMENT_PROVIDER=local .*ALLOW_LOCAL_PAYMENTS=true/)];

  test("DATABASE_URL set, or NODE_ENV=production behind a non-loopback APP_URL: refused, naming ALLOW_LOCAL_PAYMENTS", () => {
    expect(refusal({ DATABASE_URL: "postgres://gw@db.internal:5432/gw" })).toEqual(named);
    expect(refusal({ NODE_ENV: "production", APP_URL: "https://gateway.example.com" })).toEqual(named);
    expect(refusal({ NODE_ENV: "production", HOSTNAME: "192.0.2.10", PORT: "8080" })).toEqual(named);
    expect(
      refusal({ NODE_ENV: "production", APP_URL: "https://gateway.example.com", PAYMENT_PROVIDER: "local", ALLOW_LOCAL_PAYMENTS: "false" }),
    ).toEqual(named);
  });

  test("a demo says so; the Quick start, the browser tests and YooKassa deployments start as before", () => {
    expect(refusal({ DATABASE_URL: "postgres://gw@db.internal:5432/gw", ALLOW_LOCAL_PAYMENTS: "true" })).toBeNull();
    expect(refusal({ NODE_ENV: "production", APP_URL: "https://demo.example.com", ALLOW_LOCAL_PAYMENTS: "true" })).toBeNull();
    expect(refusal({ NODE_ENV: "production" })).toBeNull(); // `npm start`: APP_URL follows the listening address on localhost
    expect(refusal({ NODE_ENV: "production", HOSTNAME: "0.0.0.0", PORT: "3000" })).toBeNull();
    expect(refusal({ NODE_ENV: "production", APP_URL: "http://127.0.0.1:3210" })).toBeNull(); // playwright.config.ts
    expect(refusal({ NODE_ENV: "development", APP_URL: "http://192.0.2.10:3000" })).toBeNull();
    expect(
      refusal({
        DATABASE_URL: "postgres://gw@db.internal:5432/gw",
        NODE_ENV: "production",
        APP_URL: "https://gateway.example.com",
        PAYMENT_PROVIDER: "yookassa",
        YOOKASSA_SHOP_ID: "1",
        YOOKASSA_SECRET_KEY: "s",
      }),
    ).toBeNull();
  });
});
