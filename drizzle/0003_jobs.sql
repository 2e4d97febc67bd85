CREATE TABLE "job_cron" (
	"function_id" text NOT NULL,
	"schedule" text NOT NULL,
	"next_at" timestamp with time zone NOT NULL,
	CONSTRAINT "job_cron_function_id_schedule_pk" PRIMARY KEY("function_id","schedule")
);
--> statement-breakpoint
CREATE TABLE "job_events" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"payload" jsonb NOT NULL,
	"received_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "job_run_ops" (
	"run_id" text NOT NULL,
	"step_id" text NOT NULL,
	"kind" text NOT NULL,
	"display_name" text,
	"event_name" text,
	"expression" text,
	"match_value" text,
	"due_at" timestamp with time zone NOT NULL,
	"attempt" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "job_run_ops_run_id_step_id_pk" PRIMARY KEY("run_id","step_id")
);
--> statement-breakpoint
CREATE TABLE "job_runs" (
	"id" text PRIMARY KEY NOT NULL,
	"function_id" text NOT NULL,
	"event_id" text NOT NULL,
	"event" jsonb NOT NULL,
	"status" text NOT NULL,
	"steps" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"stack" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"attempt" integer DEFAULT 0 NOT NULL,
	"max_attempts" integer NOT NULL,
	"parallel" boolean DEFAULT false NOT NULL,
	"wake" boolean DEFAULT false NOT NULL,
	"next_at" timestamp with time zone,
	"lease" text,
	"claims" integer DEFAULT 0 NOT NULL,
	"concurrency" jsonb,
	"idempotency_key" text,
	"output" jsonb,
	"error" jsonb,
	"created_at" timestamp with time zone NOT NULL,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "job_run_ops" ADD CONSTRAINT "job_run_ops_run_id_job_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."job_runs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "job_events_received_idx" ON "job_events" USING btree ("received_at");--> statement-breakpoint
CREATE INDEX "job_run_ops_wait_idx" ON "job_run_ops" USING btree ("event_name","match_value") WHERE kind = 'wait';--> statement-breakpoint
CREATE UNIQUE INDEX "job_runs_function_event_uq" ON "job_runs" USING btree ("function_id","event_id");--> statement-breakpoint
CREATE UNIQUE INDEX "job_runs_idempotency_uq" ON "job_runs" USING btree ("function_id","idempotency_key") WHERE idempotency_key is not null;--> statement-breakpoint
CREATE INDEX "job_runs_due_idx" ON "job_runs" USING btree ("next_at") WHERE status in ('queued', 'running', 'sleeping', 'waiting', 'blocked');--> statement-breakpoint
CREATE INDEX "job_runs_running_idx" ON "job_runs" USING btree ("function_id") WHERE status = 'running';--> statement-breakpoint
CREATE INDEX "job_runs_function_active_idx" ON "job_runs" USING btree ("function_id","created_at") WHERE status in ('queued', 'running', 'sleeping', 'waiting', 'blocked');--> statement-breakpoint
CREATE INDEX "job_runs_event_idx" ON "job_runs" USING btree ("event_id");--> statement-breakpoint
CREATE INDEX "job_runs_finished_idx" ON "job_runs" USING btree ("finished_at");