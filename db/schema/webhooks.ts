import { index, integer, jsonb, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { createdAt, tstz } from "./_columns";
import { users } from "./users";

/** The secret a user's completion callbacks are signed with (Standard Webhooks, `whsec_…`). */
export const webhookSecrets = pgTable("webhook_secrets", {
  userId: text("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  secret: text("secret").notNull(),
  createdAt: createdAt(),
  rotatedAt: tstz("rotated_at"),
});

/**
 * Incoming webhooks, recorded before they are handled. The unique (source, external_id) turns a
 * redelivery into a no-op that is reported as `deduped`.
 */
export const inboundEvents = pgTable(
  "inbound_events",
  {
    id: text("id")
      .primaryKey()
      .$defaultFn(() => crypto.randomUUID()),
    /** `provider` or `yookassa`. */
    source: text("source").notNull(),
    externalId: text("external_id").notNull(),
    payload: jsonb("payload").$type<unknown>().notNull(),
    handledAt: tstz("handled_at"),
    result: jsonb("result").$type<Record<string, unknown>>(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("inbound_events_source_external_uq").on(t.source, t.externalId)],
);

/** Completion callbacks to users' URLs; `id` is the Standard Webhooks `webhook-id`. */
export const webhookDeliveries = pgTable(
  "webhook_deliveries",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    generationId: text("generation_id").notNull(),
    url: text("url").notNull(),
    payload: jsonb("payload").$type<Record<string, unknown>>().notNull(),
    /** pending | delivered | failed */
    status: text("status").notNull().default("pending"),
    attempts: integer("attempts").notNull().default(0),
    lastStatusCode: integer("last_status_code"),
    lastError: text("last_error"),
    deliveredAt: tstz("delivered_at"),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("webhook_deliveries_generation_uq").on(t.generationId),
    index("webhook_deliveries_user_idx").on(t.userId, t.createdAt, t.id),
  ],
);
