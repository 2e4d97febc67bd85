CREATE TABLE "local_provider_payments" (
	"id" text PRIMARY KEY NOT NULL,
	"idempotence_key" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"amount_kopecks" bigint NOT NULL,
	"currency" text DEFAULT 'RUB' NOT NULL,
	"description" text,
	"metadata" jsonb NOT NULL,
	"return_url" text,
	"save_payment_method" boolean DEFAULT false NOT NULL,
	"payment_method_id" text,
	"payment_method_saved" boolean DEFAULT false NOT NULL,
	"card_last4" text,
	"card_brand" text,
	"cancellation_reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "local_provider_payments_idempotence_uq" ON "local_provider_payments" USING btree ("idempotence_key");--> statement-breakpoint
CREATE INDEX "local_provider_payments_method_idx" ON "local_provider_payments" USING btree ("payment_method_id");