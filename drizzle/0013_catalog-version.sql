CREATE TABLE "catalog_version" (
	"id" boolean PRIMARY KEY DEFAULT true NOT NULL,
	"version" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
INSERT INTO "catalog_version" ("id", "version") VALUES (true, 0) ON CONFLICT DO NOTHING;
--> statement-breakpoint
-- Every statement that may change what the catalog's facet counts are made of moves the version
-- (db/schema/models.ts catalogVersion); lib/catalog/facets.ts keeps its counts per version. Not
-- popularity: its flush updates only that column.
CREATE OR REPLACE FUNCTION catalog_version_bump() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE catalog_version SET version = version + 1;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER models_catalog_version AFTER INSERT OR DELETE OR TRUNCATE
  OR UPDATE OF model_id, display_name, description, category, model_lab, tags, visible ON models
  FOR EACH STATEMENT EXECUTE FUNCTION catalog_version_bump();
