-- List items carry the Russian overlay's description (descriptionRu): an edit of schema_ru moves the version too.
DROP TRIGGER IF EXISTS models_catalog_version ON models;
--> statement-breakpoint
CREATE TRIGGER models_catalog_version AFTER INSERT OR DELETE OR TRUNCATE
  OR UPDATE OF model_id, display_name, category, description, credit_cost, price_rub, price_unit, original_price_rub,
    discount_percent, model_lab, model_family, group_label, tags, thumbnail_url, license_type, published_at, visible,
    popularity, created_at, schema, schema_ru, timed_runs, run_ms_total ON models
  FOR EACH STATEMENT EXECUTE FUNCTION catalog_version_bump();
