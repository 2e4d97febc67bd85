CREATE TABLE "gateway_instances" (
	"id" text PRIMARY KEY NOT NULL,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"heartbeat_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "generation_requests" ADD COLUMN "runner" text;--> statement-breakpoint
CREATE INDEX "generation_requests_runner_idx" ON "generation_requests" USING btree ("runner") WHERE runner is not null and status in ('queued', 'in_progress');