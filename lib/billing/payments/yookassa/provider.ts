import { env } from "@/lib/core/env";
import { kopecksToValue } from "../amount";
import { PaymentProviderError } from "../errors";
import type { CreatePaymentInput, PaymentProvider, ProviderPayment, RedirectPaymentInput, SavedMethodChargeInput } from "../provider";
import { yookassaRequest, type YookassaConfig } from "./http";
import { toProviderPayment } from "./schemas";

export function yookassaConfig(): YookassaConfig {
  const e = env();
  if (!e.YOOKASSA_SHOP_ID || !e.YOOKASSA_SECRET_KEY) {
    throw new PaymentProviderError("YOOKASSA_SHOP_ID and YOOKASSA_SECRET_KEY are not configured", null, false);
  }
  return {
    apiUrl: e.YOOKASSA_API_URL,
    shopId: e.YOOKASSA_SHOP_ID,
    secretKey: e.YOOKASSA_SECRET_KEY,
    timeoutMs: e.YOOKASSA_TIMEOUT_MS,
    maxRetries: e.YOOKASSA_MAX_RETRIES,
    baseDelayMs: 200,
  };
}

/** The 54-FZ receipt («Чеки от ЮKassa»): one service line, sent when YOOKASSA_RECEIPTS is on. */
function receipt(input: CreatePaymentInput) {
  if (!env().YOOKASSA_RECEIPTS || !input.customerEmail) return undefined;
  return {
    customer: { email: input.customerEmail },
    items: [
      {
        description: input.description.slice(0, 128),
        quantity: 1,
        amount: { value: kopecksToValue(input.amountKopecks), currency: "RUB" },
        vat_code: 1,
        payment_subject: "service",
        payment_mode: "full_payment",
        measure: "piece",
      },
    ],
  };
}

const base = (input: CreatePaymentInput) => ({
  amount: { value: kopecksToValue(input.amountKopecks), currency: "RUB" },
  capture: true,
  description: input.description.slice(0, 128),
  metadata: input.metadata,
  receipt: receipt(input),
});

/** YooKassa API v3 (notes/payments-auth.md Part A): a thin fetch client, no SDK. */
export class YookassaProvider implements PaymentProvider {
  readonly name = "yookassa" as const;

  constructor(private readonly config: () => YookassaConfig = yookassaConfig) {}

  async createRedirectPayment(input: RedirectPaymentInput): Promise<ProviderPayment> {
    const res = await yookassaRequest(this.config(), {
      method: "POST",
      path: "/payments",
      idempotenceKey: input.idempotenceKey,
      body: {
        ...base(input),
        confirmation: { type: "redirect", return_url: input.returnUrl },
        save_payment_method: input.savePaymentMethod,
      },
    });
    return toProviderPayment(res.body);
  }

  async getPayment(providerPaymentId: string): Promise<ProviderPayment | null> {
    const res = await yookassaRequest(this.config(), { method: "GET", path: `/payments/${encodeURIComponent(providerPaymentId)}` });
    return res.status === 404 ? null : toProviderPayment(res.body);
  }

  async chargeSavedMethod(input: SavedMethodChargeInput): Promise<ProviderPayment> {
    const res = await yookassaRequest(this.config(), {
      method: "POST",
      path: "/payments",
      idempotenceKey: input.idempotenceKey,
      body: { ...base(input), payment_method_id: input.providerMethodId },
    });
    return toProviderPayment(res.body);
  }
}
