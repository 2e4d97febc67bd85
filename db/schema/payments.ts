import { sql } from "drizzle-orm";
import { bigint, boolean, index, integer, jsonb, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { createdAt, credits, timestamps, tstz } from "./_columns";
import { users } from "./users";

/** Statuses as the payment provider names them; `succeeded` and `canceled` are final. */
export const paymentStatuses = ["pending", "waiting_for_capture", "succeeded", "canceled"] as const;
export type PaymentStatus = (typeof paymentStatuses)[number];

/** A card payment that tops up the balance (manual or automatic). */
export const payments = pgTable(
  "payments",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** `local` or `yookassa`. */
    provider: text("provider").notNull(),
    kind: text("kind", { enum: ["topup", "auto_topup"] })
      .notNull()
      .default("topup"),
    /** The provider's payment id; set once the provider accepted the payment. */
    paymentProviderId: text("payment_provider_id"),
    status: text("status", { enum: paymentStatuses }).notNull().default("pending"),
    /** Amount charged to the card, in kopecks. */
    amountKopecks: bigint("amount_kopecks", { mode: "number" }).notNull(),
    currency: text("currency").notNull().default("RUB"),
    /** Credits granted when the payment succeeds (amountKopecks × 100). */
    creditsToGrant: credits("credits_to_grant").notNull(),
    description: text("description"),
    confirmationUrl: text("confirmation_url"),
    returnUrl: text("return_url"),
    /** The saved method charged (auto top-up), or null for a redirect payment. */
    paymentMethodId: text("payment_method_id"),
    savePaymentMethod: boolean("save_payment_method").notNull().default(false),
    /** Sent as the provider's Idempotence-Key so a retried create cannot charge twice. */
    idempotenceKey: text("idempotence_key").notNull(),
    cancellationReason: text("cancellation_reason"),
    receiptUrl: text("receipt_url"),
    /** When the credits were granted; the grant itself is unique in the ledger (`payment:<id>`). */
    grantedAt: tstz("granted_at"),
    providerData: jsonb("provider_data").$type<Record<string, unknown>>(),
    ...timestamps,
  },
  (t) => [
    uniqueIndex("payments_provider_id_uq").on(t.provider, t.paymentProviderId),
    uniqueIndex("payments_idempotence_uq").on(t.idempotenceKey),
    index("payments_user_created_idx").on(t.userId, t.createdAt, t.id),
    // The reconcile job looks for payments still pending.
    index("payments_status_idx").on(t.status, t.createdAt),
    // At most one automatic top-up in flight per user.
    uniqueIndex("payments_one_auto_topup_in_flight_uq")
      .on(t.userId)
      .where(sql`${t.kind} = 'auto_topup' and ${t.status} in ('pending', 'waiting_for_capture')`),
  ],
);

/** A card saved at the provider during a payment, charged later by auto top-up. */
export const paymentMethods = pgTable(
  "payment_methods",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    provider: text("provider").notNull(),
    providerMethodId: text("provider_method_id").notNull(),
    cardLast4: text("card_last4"),
    cardBrand: text("card_brand"),
    title: text("title"),
    isDefault: boolean("is_default").notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("payment_methods_provider_uq").on(t.provider, t.providerMethodId),
    index("payment_methods_user_idx").on(t.userId),
    // One default method per user, enforced by the database.
    uniqueIndex("payment_methods_one_default_uq")
      .on(t.userId)
      .where(sql`${t.isDefault}`),
  ],
);

/** Auto top-up settings: below thresholdRub, charge the default method amountRub. */
export const autoTopupSettings = pgTable("auto_topup_settings", {
  userId: text("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  enabled: boolean("enabled").notNull().default(false),
  /** Whole rubles. */
  thresholdRub: integer("threshold_rub").notNull().default(0),
  /** Whole rubles charged per automatic top-up. */
  amountRub: integer("amount_rub").notNull().default(0),
  lastTriggeredAt: tstz("last_triggered_at"),
  ...timestamps,
});
