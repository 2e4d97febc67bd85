-- Lowercased text → its distinct 3-character substrings. IMMUTABLE so it can back the GIN index
-- models_search_trgm_gin (GET /models?search=): a row whose fields contain the search string
-- contains every trigram of it. Core SQL only, so it runs the same on PostgreSQL and PGlite.
-- COST 1000 (≈ the measured 5–10 µs per row) tells the planner that evaluating it row by row is
-- expensive: with the default cost of 100 it filtered 1,700 tag matches through it (12 ms) instead
-- of asking the index (1 ms).
CREATE OR REPLACE FUNCTION catalog_trigrams(t text) RETURNS text[]
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE COST 1000
AS $$
  SELECT coalesce(array_agg(DISTINCT substr(t, i, 3)), '{}'::text[])
  FROM generate_series(1, char_length(t) - 2) AS i
$$;
--> statement-breakpoint
CREATE TABLE "model_tombstones" (
	"model_id" text PRIMARY KEY NOT NULL,
	"deleted_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_by" text
);
--> statement-breakpoint
CREATE INDEX "models_search_trgm_gin" ON "models" USING gin (catalog_trigrams(lower(model_id || ' ' || display_name || ' ' || description)));--> statement-breakpoint
CREATE INDEX "models_effective_price_idx" ON "models" USING btree ((price_rub * (100 - discount_percent)));--> statement-breakpoint
CREATE INDEX "models_lab_lower_idx" ON "models" USING btree (lower(model_lab));