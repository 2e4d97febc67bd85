-- The catalog's version also moves with what lists show and sort by (prices, discounts, names,
-- thumbnails, popularity, …), since lib/catalog/list.ts keeps pages per version too: every column
-- but the provider-owned schema (schema, schema_ru, schema_fetched_at), alias, provider and
-- updated_at, which no list reads.
DROP TRIGGER IF EXISTS models_catalog_version ON models;
--> statement-breakpoint
CREATE TRIGGER models_catalog_version AFTER INSERT OR DELETE OR TRUNCATE
  OR UPDATE OF model_id, display_name, category, description, credit_cost, price_rub, price_unit, original_price_rub,
    discount_percent, model_lab, model_family, group_label, tags, thumbnail_url, license_type, published_at, visible,
    popularity, created_at ON models
  FOR EACH STATEMENT EXECUTE FUNCTION catalog_version_bump();
