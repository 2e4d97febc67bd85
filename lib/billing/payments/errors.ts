import { brand } from "@/lib/core/brand";
import { DomainError } from "@/lib/core/errors";

/**
 * The provider failed or refused a call. `retryable` says whether the same request (same
 * Idempotence-Key) may be repeated: network errors, 429 and 5xx are, other 4xx are not.
 */
export class PaymentProviderError extends Error {
  constructor(
    message: string,
    readonly status: number | null,
    readonly retryable: boolean,
    readonly providerCode: string | null = null,
  ) {
    super(message);
    this.name = "PaymentProviderError";
  }
}

const paymentProviderErrors = brand<PaymentProviderError>("payment-provider-error");
paymentProviderErrors.mark(PaymentProviderError);
export const isPaymentProviderError = paymentProviderErrors.is;

/** The HTTP answer to a provider failure: 502 payment_provider (spec "Errors"). */
export const paymentProviderDomainError = (err: PaymentProviderError) =>
  new DomainError("payment_provider", `The payment provider failed: ${err.message}. Nothing was charged; try again.`);
