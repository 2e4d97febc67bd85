import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { setEnv } from "@/test/payments";
import { FakeYookassa } from "@/test/servers/yookassa";
import { PaymentProviderError } from "../errors";
import { YookassaProvider } from "./provider";

let fake: FakeYookassa;
const provider = new YookassaProvider();
const input = {
  idempotenceKey: "pay_k1",
  amountKopecks: 50_000,
  description: "Balance top-up, 500 ₽",
  metadata: { paymentId: "pay_k1", userId: "u1" },
  customerEmail: "a@example.test",
};

beforeAll(async () => {
  fake = await FakeYookassa.start();
  setEnv({ YOOKASSA_API_URL: fake.url, YOOKASSA_SHOP_ID: fake.shopId, YOOKASSA_SECRET_KEY: fake.secretKey, YOOKASSA_MAX_RETRIES: "2" });
});
afterAll(() => fake.stop());

describe("YooKassa client against the loopback protocol server", () => {
  test("create: Basic auth, Idempotence-Key, amount as a two-decimal string, redirect confirmation; a repeated key returns the same payment", async () => {
    const created = await provider.createRedirectPayment({ ...input, returnUrl: "https://app.test/back", savePaymentMethod: true });
    expect(created).toMatchObject({
      status: "pending",
      amountKopecks: 50_000,
      currency: "RUB",
      confirmationUrl: expect.stringContaining(created.id),
      paymentMethod: null,
      metadata: { paymentId: "pay_k1", userId: "u1" },
    });
    const call = fake.calls.at(-1)!;
    expect(call.headers["idempotence-key"]).toBe("pay_k1");
    expect(call.headers.authorization).toBe(`Basic ${Buffer.from(`${fake.shopId}:${fake.secretKey}`).toString("base64")}`);
    expect(call.body).toEqual({
      amount: { value: "500.00", currency: "RUB" },
      capture: true,
      description: "Balance top-up, 500 ₽",
      metadata: { paymentId: "pay_k1", userId: "u1" },
      confirmation: { type: "redirect", return_url: "https://app.test/back" },
      save_payment_method: true,
    });
    const again = await provider.createRedirectPayment({ ...input, returnUrl: "https://app.test/back", savePaymentMethod: true });
    expect(again.id).toBe(created.id);
    expect(fake.payments.size).toBe(1);
  });

  test("fetch: the payment as the provider has it now, with the saved card; unknown → null", async () => {
    const created = await provider.createRedirectPayment({
      ...input,
      idempotenceKey: "pay_k2",
      returnUrl: "https://app.test/back",
      savePaymentMethod: true,
    });
    fake.succeed(created.id, { last4: "4477", brand: "Mir" });
    expect(await provider.getPayment(created.id)).toMatchObject({
      id: created.id,
      status: "succeeded",
      paymentMethod: { saved: true, last4: "4477", brand: "Mir", title: "Bank card *4477" },
    });
    expect(await provider.getPayment("no-such-payment")).toBeNull();
  });

  test("recurring charge of a saved method: no confirmation, payment_method_id, succeeded at once", async () => {
    const first = await provider.createRedirectPayment({
      ...input,
      idempotenceKey: "pay_k3",
      returnUrl: "https://app.test/back",
      savePaymentMethod: true,
    });
    const method = fake.succeed(first.id).payment_method!.id;
    const charge = await provider.chargeSavedMethod({
      ...input,
      idempotenceKey: "pay_auto1",
      amountKopecks: 100_000,
      providerMethodId: method,
    });
    expect(charge).toMatchObject({
      status: "succeeded",
      amountKopecks: 100_000,
      confirmationUrl: null,
      paymentMethod: { id: method, saved: true },
    });
    expect(fake.calls.at(-1)!.body).toEqual({
      amount: { value: "1000.00", currency: "RUB" },
      capture: true,
      description: input.description,
      metadata: input.metadata,
      payment_method_id: method,
    });
  });

  test("5xx is retried with the same Idempotence-Key, then succeeds", async () => {
    fake.failNext("create", { status: 500 }, { status: 503 });
    const before = fake.calls.length;
    const created = await provider.createRedirectPayment({
      ...input,
      idempotenceKey: "pay_k4",
      returnUrl: "https://app.test/back",
      savePaymentMethod: false,
    });
    expect(created.status).toBe("pending");
    const attempts = fake.calls.slice(before);
    expect(attempts.map((c) => c.headers["idempotence-key"])).toEqual(["pay_k4", "pay_k4", "pay_k4"]);
  });

  test("5xx past the retries → a retryable PaymentProviderError; a 4xx is not retried", async () => {
    fake.failNext("create", { status: 500 }, { status: 502 }, { status: 500 });
    const err = await provider
      .createRedirectPayment({ ...input, idempotenceKey: "pay_k5", returnUrl: "https://app.test/back", savePaymentMethod: false })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PaymentProviderError);
    expect(err).toMatchObject({ status: 500, retryable: true, message: "YooKassa answered 500 (internal_server_error: Scripted failure)" });

    const before = fake.calls.length;
    const refused = await provider
      .chargeSavedMethod({ ...input, idempotenceKey: "pay_k6", providerMethodId: "not-saved" })
      .catch((e: unknown) => e);
    expect(refused).toMatchObject({ status: 400, retryable: false, providerCode: "invalid_request" });
    expect(fake.calls.length - before).toBe(1);
  });

  test("wrong credentials are a provider error, not a crash", async () => {
    setEnv({ YOOKASSA_SECRET_KEY: "wrong" });
    try {
      const err = await provider.getPayment("x").catch((e: unknown) => e);
      expect(err).toMatchObject({ name: "PaymentProviderError", status: 401, providerCode: "invalid_credentials" });
    } finally {
      setEnv({ YOOKASSA_SECRET_KEY: fake.secretKey });
    }
  });
});
