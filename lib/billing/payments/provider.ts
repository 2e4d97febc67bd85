import type { PaymentStatus } from "@/db/schema";

/**
 * What the app needs from a payment provider (DESIGN.md "payments"): create a redirect payment,
 * read a payment back, and charge a saved card without the user. Two implementations: `yookassa`
 * (its v3 HTTP API) and `local` (the embedded simulator with an in-app confirmation page,
 * simulators/local-payments, registered at start-up: ./registry.ts).
 */
export type ProviderName = "local" | "yookassa";

export type ProviderPayment = {
  /** The provider's payment id (our `paymentProviderId`). */
  id: string;
  status: PaymentStatus;
  amountKopecks: number;
  currency: string;
  /** Where the user confirms a redirect payment; null for charges of a saved card. */
  confirmationUrl: string | null;
  /** The card used, when known; `saved` means it may be charged again without the user. */
  paymentMethod: { id: string; saved: boolean; last4: string | null; brand: string | null; title: string | null } | null;
  cancellationReason: string | null;
  metadata: Record<string, string>;
  /** A receipt page at the provider, when it has one (YooKassa mails receipts and has none). */
  receiptUrl: string | null;
  raw: Record<string, unknown>;
};

export type CreatePaymentInput = {
  /** Sent as the provider's Idempotence-Key: a repeated create returns the first payment. */
  idempotenceKey: string;
  amountKopecks: number;
  description: string;
  /** Our ids, echoed back by the provider (`paymentId`, `userId`). */
  metadata: Record<string, string>;
  /** For the receipt (54-FZ), when the provider sends one. */
  customerEmail: string | null;
};

export type RedirectPaymentInput = CreatePaymentInput & { returnUrl: string; savePaymentMethod: boolean };
export type SavedMethodChargeInput = CreatePaymentInput & { providerMethodId: string };

export interface PaymentProvider {
  readonly name: ProviderName;
  createRedirectPayment(input: RedirectPaymentInput): Promise<ProviderPayment>;
  /** Null when the provider has no such payment. */
  getPayment(providerPaymentId: string): Promise<ProviderPayment | null>;
  chargeSavedMethod(input: SavedMethodChargeInput): Promise<ProviderPayment>;
}

export const isFinalStatus = (s: PaymentStatus) => s === "succeeded" || s === "canceled";
