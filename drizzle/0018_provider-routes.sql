-- Several providers per model (lib/generation/routing.ts): the routes an admin orders per model, and
-- on each job the plan it was started with, the attempts before the provider that served, the
-- endpoint it was sent to and what that provider charges for it.
CREATE TABLE "model_routes" (
	"model_id" text NOT NULL,
	"provider" text NOT NULL,
	"endpoint_id" text NOT NULL,
	"input_map" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"cost_rub" numeric(20, 8),
	"position" integer DEFAULT 0 NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "model_routes_model_id_provider_pk" PRIMARY KEY("model_id","provider")
);
--> statement-breakpoint
ALTER TABLE "generation_requests" ADD COLUMN "provider_endpoint_id" text;--> statement-breakpoint
ALTER TABLE "generation_requests" ADD COLUMN "routing" jsonb;--> statement-breakpoint
ALTER TABLE "generation_requests" ADD COLUMN "attempts" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "generation_requests" ADD COLUMN "provider_cost_credits" bigint;--> statement-breakpoint
ALTER TABLE "model_routes" ADD CONSTRAINT "model_routes_model_id_models_model_id_fk" FOREIGN KEY ("model_id") REFERENCES "public"."models"("model_id") ON DELETE cascade ON UPDATE cascade;