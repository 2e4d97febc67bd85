import { env } from "@/lib/core/env";
import { processWide } from "@/lib/core/process-wide";
import type { PaymentProvider, ProviderName } from "./provider";
import { YookassaProvider } from "./yookassa/provider";

/**
 * The payment providers by name: `yookassa` here, `local` (the embedded simulator with its
 * confirmation page, which lib/ does not import) by simulators/register.ts at start-up
 * (instrumentation.ts, test/setup.ts). Each is built on first use, once per process.
 */
export type PaymentProviderRegistration = {
  create(): PaymentProvider;
  /**
   * Whether a notification's `Authorization: Bearer <secret>` is this provider's own (the local
   * provider signs its notifications so); providers that sign nothing leave it out.
   */
  acceptsBearer?(secret: string): boolean;
};

type Registry = { registrations: Map<ProviderName, PaymentProviderRegistration>; built: Map<ProviderName, PaymentProvider> };

// Process-wide: the registration made at start-up (instrumentation.ts) must be seen by every server chunk.
const registry = () =>
  processWide<Registry>("payments.providers", () => ({
    registrations: new Map([["yookassa", { create: () => new YookassaProvider() }]]),
    built: new Map(),
  }));

/** Registers (or replaces) the payment provider under `name`. */
export function registerPaymentProvider(name: ProviderName, registration: PaymentProviderRegistration): void {
  registry().registrations.set(name, registration);
  registry().built.delete(name);
}

/** The provider new payments go to (PAYMENT_PROVIDER). */
export const currentPaymentProvider = (): PaymentProvider => paymentProvider(env().PAYMENT_PROVIDER);

/** The provider a stored payment was made with: it is always re-read from the same one. */
export function paymentProvider(name: string): PaymentProvider {
  const { registrations, built } = registry();
  let provider = built.get(name as ProviderName);
  if (!provider) {
    const registration = registrations.get(name as ProviderName);
    if (!registration) throw new Error(`unknown payment provider ${name}`);
    provider = registration.create();
    built.set(name as ProviderName, provider);
  }
  return provider;
}

/** The provider whose notifications carry this bearer secret, if any. */
export function paymentProviderByBearer(secret: string): ProviderName | null {
  for (const [name, registration] of registry().registrations) if (registration.acceptsBearer?.(secret)) return name;
  return null;
}
