import { env } from "@/lib/core/env";
import { LocalPaymentProvider } from "./local/provider";
import type { PaymentProvider, ProviderName } from "./provider";
import { YookassaProvider } from "./yookassa/provider";

const providers: Record<ProviderName, PaymentProvider> = { local: new LocalPaymentProvider(), yookassa: new YookassaProvider() };

/** The provider new payments go to (PAYMENT_PROVIDER). */
export const currentPaymentProvider = (): PaymentProvider => providers[env().PAYMENT_PROVIDER];

/** The provider a stored payment was made with: it is always re-read from the same one. */
export function paymentProvider(name: string): PaymentProvider {
  const provider = providers[name as ProviderName];
  if (!provider) throw new Error(`unknown payment provider ${name}`);
  return provider;
}
