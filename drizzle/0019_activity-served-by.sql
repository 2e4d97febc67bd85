-- An activity record names the provider its job ended on and the ones left before it (issue 38).
ALTER TABLE "activity" ADD COLUMN "provider" text;--> statement-breakpoint
ALTER TABLE "activity" ADD COLUMN "attempts" jsonb;