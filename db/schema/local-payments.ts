import { bigint, boolean, index, jsonb, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { timestamps } from "./_columns";
import { paymentStatuses } from "./payments";

/**
 * The `local` payment provider's own books: what a real provider keeps on its side. The app never
 * trusts a notification on its word; it re-reads the payment from here (as it re-reads YooKassa's
 * API), so these rows play the part of the remote system and are written only by
 * simulators/local-payments (the confirmation page and charges of saved cards).
 */
export const localProviderPayments = pgTable(
  "local_provider_payments",
  {
    /** `lp_<uuid>`: the paymentProviderId our payments rows carry. */
    id: text("id").primaryKey(),
    /** The Idempotence-Key of the create request: a repeated create returns the same payment. */
    idempotenceKey: text("idempotence_key").notNull(),
    status: text("status", { enum: paymentStatuses }).notNull().default("pending"),
    /** Amount in kopecks. */
    amountKopecks: bigint("amount_kopecks", { mode: "number" }).notNull(),
    currency: text("currency").notNull().default("RUB"),
    description: text("description"),
    metadata: jsonb("metadata").$type<Record<string, string>>().notNull(),
    returnUrl: text("return_url"),
    savePaymentMethod: boolean("save_payment_method").notNull().default(false),
    /** The card used (`lpm_<uuid>`); saved when savePaymentMethod was asked and the payment succeeded. */
    paymentMethodId: text("payment_method_id"),
    paymentMethodSaved: boolean("payment_method_saved").notNull().default(false),
    cardLast4: text("card_last4"),
    cardBrand: text("card_brand"),
    cancellationReason: text("cancellation_reason"),
    ...timestamps,
  },
  (t) => [
    uniqueIndex("local_provider_payments_idempotence_uq").on(t.idempotenceKey),
    // Charging a saved card looks the card up by its id.
    index("local_provider_payments_method_idx").on(t.paymentMethodId),
  ],
);
