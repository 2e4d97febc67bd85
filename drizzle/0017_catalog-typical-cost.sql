-- The catalog's "cheapest first" sorts by the cost of a typical run: the unit price after discount
-- times the units of the request made of the input schema's defaults. catalog_typical_quantity is
-- lib/pricing/quantity.ts typicalQuantity in SQL (lib/catalog/typical.test.ts holds them equal);
-- PostgreSQL computes the generated column typical_quantity with it, so every writer keeps it.
-- A JSON number >= 0, or a numeric string such as "5" or "10s" (quantity.ts numberish).
CREATE OR REPLACE FUNCTION catalog_numberish(v jsonb) RETURNS numeric
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$
  SELECT CASE
    WHEN jsonb_typeof(v) = 'number' AND (v #>> '{}')::numeric >= 0 THEN (v #>> '{}')::numeric
    WHEN jsonb_typeof(v) = 'string' AND (v #>> '{}') ~* '^\s*\d+(\.\d+)?\s*s?\s*$'
      THEN substring(v #>> '{}' from '\d+(?:\.\d+)?')::numeric
  END
$$;
--> statement-breakpoint
-- A JSON number that is a positive safe integer (quantity.ts isPositiveInt), else NULL.
CREATE OR REPLACE FUNCTION catalog_positive_int(v jsonb) RETURNS numeric
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$
  SELECT CASE
    WHEN jsonb_typeof(v) = 'number' AND (v #>> '{}')::numeric > 0 AND (v #>> '{}')::numeric <= 9007199254740991
      AND (v #>> '{}')::numeric = trunc((v #>> '{}')::numeric) THEN (v #>> '{}')::numeric
  END
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION catalog_typical_quantity(unit text, input jsonb) RETURNS numeric
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$
  WITH d AS (
    SELECT
      coalesce(catalog_positive_int(input #> '{properties,num_images,default}'), 1) AS images,
      input #> '{properties,image_size,default}' AS image_size,
      input #> '{properties,aspect_ratio,default}' AS aspect_ratio,
      catalog_positive_int(input #> '{properties,width,default}') AS width,
      catalog_positive_int(input #> '{properties,height,default}') AS height,
      catalog_numberish(input #> '{properties,upscale_factor,default}') AS factor,
      coalesce(
        nullif(input #> '{properties,text,default}', 'null'::jsonb),
        nullif(input #> '{properties,prompt,default}', 'null'::jsonb),
        nullif(input #> '{properties,input,default}', 'null'::jsonb)
      ) AS text
  ), size AS (
    SELECT d.*, coalesce(
      CASE WHEN jsonb_typeof(image_size) = 'string' THEN (
        '{"square_hd":[1024,1024],"square":[512,512],"portrait_4_3":[768,1024],"portrait_16_9":[576,1024],"landscape_4_3":[1024,768],"landscape_16_9":[1024,576]}'::jsonb
        -> (image_size #>> '{}')) END,
      CASE WHEN catalog_positive_int(image_size -> 'width') IS NOT NULL AND catalog_positive_int(image_size -> 'height') IS NOT NULL
        THEN jsonb_build_array(image_size -> 'width', image_size -> 'height') END,
      CASE WHEN width IS NOT NULL AND height IS NOT NULL THEN jsonb_build_array(width, height) END,
      CASE WHEN jsonb_typeof(aspect_ratio) = 'string' THEN (
        '{"1:1":[1024,1024],"16:9":[1344,768],"9:16":[768,1344],"4:3":[1152,896],"3:4":[896,1152],"3:2":[1216,832],"2:3":[832,1216],"21:9":[1536,640],"9:21":[640,1536]}'::jsonb
        -> (aspect_ratio #>> '{}')) END,
      '[1024,1024]'::jsonb
    ) AS wh
    FROM d
  )
  SELECT CASE unit
    WHEN 'image' THEN images
    WHEN 'megapixel' THEN
      (wh ->> 0)::numeric * (wh ->> 1)::numeric * CASE WHEN factor > 0 THEN factor * factor ELSE 1 END * images / 1000000
    WHEN 'second' THEN coalesce(
      catalog_numberish(input #> '{properties,duration,default}'),
      catalog_numberish(input #> '{properties,seconds_total,default}'),
      catalog_numberish(input #> '{properties,duration_seconds,default}'),
      catalog_numberish(input #> '{properties,seconds,default}'),
      5)
    WHEN '1k_chars' THEN greatest(1, ceil(coalesce(
      CASE jsonb_typeof(text)
        WHEN 'string' THEN char_length(text #>> '{}')
        WHEN 'array' THEN (SELECT sum(char_length(e #>> '{}')) FROM jsonb_array_elements(text) e WHERE jsonb_typeof(e) = 'string')
      END, 0) / 1000.0))
    ELSE 1
  END
  FROM size
$$;
--> statement-breakpoint
DROP INDEX "models_effective_price_idx";--> statement-breakpoint
ALTER TABLE "models" ADD COLUMN "timed_runs" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "models" ADD COLUMN "run_ms_total" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "models" ADD COLUMN "typical_quantity" numeric GENERATED ALWAYS AS (catalog_typical_quantity(price_unit, schema -> 'input')) STORED;--> statement-breakpoint
CREATE INDEX "models_typical_cost_idx" ON "models" USING btree ((price_rub * (100 - discount_percent) * typical_quantity));--> statement-breakpoint
-- Lists now read typical_quantity, computed from the schema: a schema write moves the version too.
DROP TRIGGER IF EXISTS models_catalog_version ON models;
--> statement-breakpoint
CREATE TRIGGER models_catalog_version AFTER INSERT OR DELETE OR TRUNCATE
  OR UPDATE OF model_id, display_name, category, description, credit_cost, price_rub, price_unit, original_price_rub,
    discount_percent, model_lab, model_family, group_label, tags, thumbnail_url, license_type, published_at, visible,
    popularity, created_at, schema, timed_runs, run_ms_total ON models
  FOR EACH STATEMENT EXECUTE FUNCTION catalog_version_bump();
