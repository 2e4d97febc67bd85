import { sql } from "drizzle-orm";
import { boolean, index, integer, jsonb, pgTable, primaryKey, text, uniqueIndex } from "drizzle-orm/pg-core";
import { tstz } from "./_columns";

/**
 * State of the embedded job executor (lib/jobs): the Inngest functions' events, runs and what each
 * run waits on. Under an Inngest server these tables stay empty. Every time here comes from the
 * executor's clock (injectable in tests), never from the database's now().
 */

/** An event as functions receive it (`event` in the handler). */
export type JobEvent = {
  id: string;
  name: string;
  data: Record<string, unknown>;
  ts: number;
  user?: Record<string, unknown>;
  v?: string;
};

/** A memoised step result, exactly as the SDK protocol carries it in a call's `steps`. */
export type MemoizedStep = { type: "data"; data: unknown } | { type: "error"; error: unknown };

/** A concurrency slot a run occupies while it executes: runs sharing `key` are at most `limit` at once. */
export type ConcurrencySlot = { key: string; limit: number };

export const jobRunStatuses = ["queued", "running", "sleeping", "waiting", "blocked", "completed", "failed", "cancelled"] as const;
export type JobRunStatus = (typeof jobRunStatuses)[number];
/** Statuses of a run that still has work ahead of it. */
export const activeJobRunStatuses = ["queued", "running", "sleeping", "waiting", "blocked"] as const;

/**
 * Every event sent while the embedded executor runs. The primary key is the event id, so a second
 * send of the same id is a no-op (Inngest's 24 h event dedupe); the prune job deletes rows past
 * that window, after which the id may be used again.
 */
export const jobEvents = pgTable(
  "job_events",
  {
    id: text("id").primaryKey(),
    name: text("name").notNull(),
    payload: jsonb("payload").$type<JobEvent>().notNull(),
    receivedAt: tstz("received_at").notNull(),
  },
  // The prune job deletes events past the dedupe window.
  (t) => [index("job_events_received_idx").on(t.receivedAt)],
);

/** One run of one function for one triggering event, with its memoised steps. */
export const jobRuns = pgTable(
  "job_runs",
  {
    id: text("id").primaryKey(),
    /** Composite id `<appId>-<functionId>` (`-failure` suffix for onFailure handlers). */
    functionId: text("function_id").notNull(),
    eventId: text("event_id").notNull(),
    /** The triggering event (a copy: events are pruned independently). */
    event: jsonb("event").$type<JobEvent>().notNull(),
    /**
     * queued (due at next_at) → running (leased until next_at) → sleeping | waiting (due at the
     * earliest timer) | blocked (over a concurrency limit) → … → completed | failed | cancelled.
     */
    status: text("status", { enum: jobRunStatuses }).notNull(),
    /** Memoised step results keyed by hashed step id; only ever merged into (`||`), never replaced. */
    steps: jsonb("steps").$type<Record<string, MemoizedStep>>().notNull().default({}),
    /** Hashed step ids in the order they completed (the protocol's `ctx.stack`). */
    stack: jsonb("stack").$type<string[]>().notNull().default([]),
    /** Attempt of the current step (or of the function body), 0-based; reset when a step completes. */
    attempt: integer("attempt").notNull().default(0),
    maxAttempts: integer("max_attempts").notNull(),
    /** Set once the function reported parallel steps: later calls set `disable_immediate_execution`. */
    parallel: boolean("parallel").notNull().default(false),
    /** A wait was resolved while the run was executing: re-run it instead of parking it. */
    wake: boolean("wake").notNull().default(false),
    /** When the run is next due; for a running run, when its lease expires. Null once final. */
    nextAt: tstz("next_at"),
    /** The executor instance and claim holding the run; commits check it, so a stale holder writes nothing. */
    lease: text("lease"),
    /** How many times the run was claimed; part of every lease, so no two claims share one. */
    claims: integer("claims").notNull().default(0),
    /** The concurrency slots this run needs while it executes (null: unlimited). */
    concurrency: jsonb("concurrency").$type<ConcurrencySlot[]>(),
    /** The function's `idempotency` key for this event: one run per key per 24 h. */
    idempotencyKey: text("idempotency_key"),
    output: jsonb("output").$type<unknown>(),
    /** The serialised error of a failed run, or the reason of a cancelled one. */
    error: jsonb("error").$type<unknown>(),
    createdAt: tstz("created_at").notNull(),
    startedAt: tstz("started_at"),
    finishedAt: tstz("finished_at"),
  },
  (t) => [
    // One run per function and event, whoever ingests it.
    uniqueIndex("job_runs_function_event_uq").on(t.functionId, t.eventId),
    uniqueIndex("job_runs_idempotency_uq")
      .on(t.functionId, t.idempotencyKey)
      .where(sql`idempotency_key is not null`),
    // The claim query: active runs by due time.
    index("job_runs_due_idx")
      .on(t.nextAt)
      .where(sql`status in ('queued', 'running', 'sleeping', 'waiting', 'blocked')`),
    // Concurrency counts look only at executing runs.
    index("job_runs_running_idx")
      .on(t.functionId)
      .where(sql`status = 'running'`),
    // cancelOn looks for a function's unfinished runs.
    index("job_runs_function_active_idx")
      .on(t.functionId, t.createdAt)
      .where(sql`status in ('queued', 'running', 'sleeping', 'waiting', 'blocked')`),
    // Waiting for the runs an event started.
    index("job_runs_event_idx").on(t.eventId),
    // The prune job deletes finished runs past the retention window.
    index("job_runs_finished_idx").on(t.finishedAt),
  ],
);

/**
 * What a run is waiting on: a planned step to execute (`step`), a timer (`sleep`), or an event
 * (`wait`, with its timeout as due_at). A wait is resolved by deleting its row, so an event and a
 * timeout can never both resolve it.
 */
export const jobRunOps = pgTable(
  "job_run_ops",
  {
    runId: text("run_id")
      .notNull()
      .references(() => jobRuns.id, { onDelete: "cascade" }),
    /** The hashed step id the SDK reported. */
    stepId: text("step_id").notNull(),
    kind: text("kind", { enum: ["step", "sleep", "wait"] }).notNull(),
    displayName: text("display_name"),
    /** wait: the event name awaited. */
    eventName: text("event_name"),
    /** wait: the CEL expression over `event` (the run's trigger) and `async` (the new event). */
    expression: text("expression"),
    /**
     * wait: for an equality like `event.data.id == async.data.id`, the trigger's side of it, so
     * an incoming event only looks at the waits one of its own values could satisfy.
     */
    matchValue: text("match_value"),
    /** step: when its next attempt is due; sleep: when it wakes; wait: when it times out. */
    dueAt: tstz("due_at").notNull(),
    /** step: attempt of this planned step, 0-based. */
    attempt: integer("attempt").notNull().default(0),
    createdAt: tstz("created_at").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.runId, t.stepId] }),
    // An incoming event looks up the waits for its name.
    index("job_run_ops_wait_idx")
      .on(t.eventName, t.matchValue)
      .where(sql`kind = 'wait'`),
  ],
);

/** Next fire time of each cron trigger; claimed with SKIP LOCKED so one instance fires it. */
export const jobCron = pgTable(
  "job_cron",
  {
    functionId: text("function_id").notNull(),
    /** The cron expression as the function declares it, with an optional `TZ=…` prefix. */
    schedule: text("schedule").notNull(),
    nextAt: tstz("next_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.functionId, t.schedule] })],
);
