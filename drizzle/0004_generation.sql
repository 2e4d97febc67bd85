ALTER TABLE "generation_requests" ADD COLUMN "operation" text DEFAULT 'run' NOT NULL;--> statement-breakpoint
ALTER TABLE "generation_requests" ADD COLUMN "passthrough" boolean DEFAULT false NOT NULL;