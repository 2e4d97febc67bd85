DROP INDEX "models_tags_gin";--> statement-breakpoint
DROP INDEX "models_search_trgm_gin";--> statement-breakpoint
CREATE INDEX "models_tags_gin" ON "models" USING gin ("tags") WITH (fastupdate=false);--> statement-breakpoint
CREATE INDEX "models_search_trgm_gin" ON "models" USING gin (catalog_trigrams(lower(model_id || ' ' || display_name || ' ' || description))) WITH (fastupdate=false);