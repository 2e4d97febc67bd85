import { sql } from "drizzle-orm";
import { bigint, bigserial, boolean, index, integer, jsonb, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { createdAt, credits, timestamps, tstz } from "./_columns";
import { apiKeys } from "./api-keys";
import { users } from "./users";

export const generationStatuses = ["queued", "in_progress", "completed", "failed", "cancelled"] as const;
export type GenerationStatus = (typeof generationStatuses)[number];

/** A route the job may be sent to, as planned at its start. */
export type PlannedRoute = { provider: string; endpointId: string; inputMap?: Record<string, string>; costCredits?: number | null };
export type RoutingPlan = { routes: PlannedRoute[]; allowFallbacks: boolean };
/** `refused`: the submit failed before the provider took it; `not_started`: it did not start before its deadline (cancelled there). */
export type RouteAttempt = { provider: string; outcome: "refused" | "not_started" | "skipped"; reason: string; at: string };

/** One generation job, from either surface, sync or queued. Its id is the public request id (UUID). */
export const generationRequests = pgTable(
  "generation_requests",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    apiKeyId: text("api_key_id").references(() => apiKeys.id, { onDelete: "set null" }),
    modelId: text("model_id").notNull(),
    /** `gateway` (/run, /queue), `skill` (/api/v1/generate) or `fal` (fal's protocol, lib/fal-protocol): decides the result shape. */
    surface: text("surface", { enum: ["gateway", "skill", "fal"] }).notNull(),
    mode: text("mode", { enum: ["sync", "queue"] }).notNull(),
    /** What made it, as activity records it: run | queue | generate | integration. */
    operation: text("operation").notNull().default("run"),
    /** `/run?passthrough=1`: answer with the provider's links and copy nothing. */
    passthrough: boolean("passthrough").notNull().default(false),
    /** Made with a `_test_` key: runs on the simulator and never touches the real balance. */
    sandbox: boolean("sandbox").notNull().default(false),
    status: text("status", { enum: generationStatuses }).notNull().default("queued"),
    input: jsonb("input").$type<Record<string, unknown>>().notNull(),
    /** The result with the service's own (re-hosted) URLs. */
    output: jsonb("output").$type<Record<string, unknown>>(),
    /** The result as the provider returned it (its URLs expire after about a day). */
    providerOutput: jsonb("provider_output").$type<Record<string, unknown>>(),
    errorCode: text("error_code"),
    errorMessage: text("error_message"),
    /** Credits debited before submitting (the quote). */
    costReservedCredits: credits("cost_reserved_credits").notNull().default(0),
    /** Credits finally charged after settling; null until settled or refunded. */
    costSettledCredits: credits("cost_settled_credits"),
    /** The provider carrying the job now: the first route planned, then the one that accepted it. */
    provider: text("provider").notNull(),
    providerRequestId: text("provider_request_id"),
    /** The provider's id of the model it was sent to (the route's); null: the model's alias. */
    providerEndpointId: text("provider_endpoint_id"),
    /**
     * The routes planned at the start, in order, and whether the job may move to the next one
     * (lib/generation/routing.ts); null: the one provider in `provider`.
     */
    routing: jsonb("routing").$type<RoutingPlan>(),
    /** Each provider tried before the one serving and how it went (a refusal, a missed start). */
    attempts: jsonb("attempts").$type<RouteAttempt[]>().notNull().default([]),
    /** What the serving provider charges the operator for it (its route's cost × the units); null: unknown. */
    providerCostCredits: credits("provider_cost_credits"),
    /** Completion callback URL (`webhook` / `webhook_url`). */
    webhookUrl: text("webhook_url"),
    /**
     * The server process running a sync job inline (a `gateway_instances` id); null for queued
     * jobs, which the queue function carries. When that process stops beating, the job is handed
     * to the queue function (lib/generation/runners.ts).
     */
    runner: text("runner"),
    /** X-Request-ID of the HTTP request that created the job. */
    httpRequestId: text("http_request_id"),
    queuePosition: integer("queue_position"),
    submittedAt: tstz("submitted_at"),
    startedAt: tstz("started_at"),
    completedAt: tstz("completed_at"),
    ...timestamps,
  },
  (t) => [
    // Provider webhooks find their job by the provider's id.
    uniqueIndex("generation_requests_provider_uq").on(t.provider, t.providerRequestId),
    index("generation_requests_user_created_idx").on(t.userId, t.createdAt, t.id),
    // Recovery sweeps look for unfinished jobs.
    index("generation_requests_status_idx").on(t.status, t.updatedAt),
    // A dead instance's unfinished sync jobs, found when another instance notices it stopped beating.
    index("generation_requests_runner_idx")
      .on(t.runner)
      .where(sql`runner is not null and status in ('queued', 'in_progress')`),
  ],
);

/**
 * Server processes that run sync jobs inline, each beating every few seconds while it lives; one
 * that stops (killed, crashed) is noticed by another and its unfinished sync jobs are taken over.
 */
export const gatewayInstances = pgTable("gateway_instances", {
  id: text("id").primaryKey(),
  startedAt: tstz("started_at").notNull().defaultNow(),
  heartbeatAt: tstz("heartbeat_at").notNull().defaultNow(),
});

/**
 * What happened to a job, in order: status changes, provider logs and gateway progress. SSE
 * streams replay it from the start, so a client that connects late still sees everything.
 */
export const generationEvents = pgTable(
  "generation_events",
  {
    seq: bigserial("seq", { mode: "number" }).primaryKey(),
    generationId: text("generation_id")
      .notNull()
      .references(() => generationRequests.id, { onDelete: "cascade" }),
    kind: text("kind", { enum: ["status", "log", "progress"] }).notNull(),
    data: jsonb("data").$type<Record<string, unknown>>().notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("generation_events_generation_seq_idx").on(t.generationId, t.seq)],
);

/** The activity log behind /me/activity and the usage endpoints: one row per billed operation. */
export const activity = pgTable(
  "activity",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    apiKeyId: text("api_key_id"),
    modelId: text("model_id"),
    /** run | queue | generate | upload | integration */
    operation: text("operation").notNull(),
    /** Credits finally charged (0 for failures, which are refunded). */
    credits: credits("credits").notNull().default(0),
    /** completed | failed | cancelled */
    status: text("status").notNull(),
    errorCode: text("error_code"),
    /** The generation request id. */
    requestId: text("request_id"),
    /** The provider's request id (the key of GET /me/activity/{falRequestId}). */
    providerRequestId: text("provider_request_id"),
    durationMs: bigint("duration_ms", { mode: "number" }),
    sandbox: boolean("sandbox").notNull().default(false),
    /** The provider the job ended on, and those it left before starting there (its job's `attempts`). */
    provider: text("provider"),
    attempts: jsonb("attempts").$type<RouteAttempt[]>(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("activity_request_uq").on(t.requestId),
    // GET /me/activity and /me/usage*: a user's records in a time range.
    index("activity_user_created_idx").on(t.userId, t.createdAt, t.id),
    index("activity_key_created_idx").on(t.apiKeyId, t.createdAt, t.id),
    // GET /admin/usage/top-users: every user's records in a time range.
    index("activity_created_idx").on(t.createdAt, t.id),
    index("activity_provider_request_idx").on(t.providerRequestId),
  ],
);
