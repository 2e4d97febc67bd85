import { index, integer, jsonb, pgTable, text } from "drizzle-orm/pg-core";
import { tstz } from "./_columns";

export const localWebhookStates = ["none", "pending", "delivered", "failed", "cancelled"] as const;
export type LocalWebhookState = (typeof localWebhookStates)[number];

/**
 * Requests accepted by the `local` simulator provider. It behaves like a remote provider, so a
 * request it accepted must survive a restart of the process: everything that decides the outcome
 * is fixed here at submission, and status, logs and output are pure functions of this row and the
 * clock (simulators/local-provider). Nothing in this table is money; the engine's own rows are the record.
 */
export const localProviderRequests = pgTable(
  "local_provider_requests",
  {
    /** The provider request id handed to the engine (UUID, like fal's). */
    id: text("id").primaryKey(),
    /** The endpoint id it was submitted to, e.g. `fal-ai/flux/dev`. */
    endpointId: text("endpoint_id").notNull(),
    /** The engine's request id (correlation only; not unique: the engine may resubmit). */
    clientRequestId: text("client_request_id"),
    input: jsonb("input").$type<Record<string, unknown>>().notNull(),
    /** Category hint given at submission (decides the kind of media produced). */
    category: text("category"),
    /** Simulated processing time, queue wait included, fixed at submission. */
    latencyMs: integer("latency_ms").notNull(),
    /** Injected failure fixed at submission (`generation[:type]`, `timeout`), or null. */
    failure: text("failure"),
    submittedAt: tstz("submitted_at").notNull(),
    cancelledAt: tstz("cancelled_at"),
    /** Completion webhook target (fal's `fal_webhook`). */
    webhookUrl: text("webhook_url"),
    webhookState: text("webhook_state", { enum: localWebhookStates }).notNull().default("none"),
    webhookAttempts: integer("webhook_attempts").notNull().default(0),
    /** When the next delivery attempt is due; also a lease: a sender pushes it forward before sending. */
    webhookNextAt: tstz("webhook_next_at"),
    webhookLastError: text("webhook_last_error"),
  },
  (t) => [
    // The delivery sweeper: pending webhooks that are due, oldest first.
    index("local_provider_requests_webhook_due_idx").on(t.webhookState, t.webhookNextAt),
    // Retention: requests older than a week are pruned, oldest first.
    index("local_provider_requests_submitted_idx").on(t.submittedAt),
  ],
);

export type LocalProviderRequest = typeof localProviderRequests.$inferSelect;
