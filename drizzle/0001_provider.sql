CREATE TABLE "local_provider_requests" (
	"id" text PRIMARY KEY NOT NULL,
	"endpoint_id" text NOT NULL,
	"client_request_id" text,
	"input" jsonb NOT NULL,
	"category" text,
	"latency_ms" integer NOT NULL,
	"failure" text,
	"submitted_at" timestamp with time zone NOT NULL,
	"cancelled_at" timestamp with time zone,
	"webhook_url" text,
	"webhook_state" text DEFAULT 'none' NOT NULL,
	"webhook_attempts" integer DEFAULT 0 NOT NULL,
	"webhook_next_at" timestamp with time zone,
	"webhook_last_error" text
);
--> statement-breakpoint
CREATE INDEX "local_provider_requests_webhook_due_idx" ON "local_provider_requests" USING btree ("webhook_state","webhook_next_at");--> statement-breakpoint
CREATE INDEX "local_provider_requests_submitted_idx" ON "local_provider_requests" USING btree ("submitted_at");