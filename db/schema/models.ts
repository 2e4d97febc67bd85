import { sql } from "drizzle-orm";
import { bigint, boolean, index, integer, jsonb, numeric, pgTable, text } from "drizzle-orm/pg-core";
import { timestamps, tstz } from "./_columns";

export const priceUnits = ["image", "second", "megapixel", "request", "1k_chars"] as const;
export type PriceUnit = (typeof priceUnits)[number];
export const licenseTypes = ["commercial", "non-commercial", "open-source"] as const;

export type JsonSchema = Record<string, unknown>;

/**
 * `GET /models?search=` is a case-insensitive substring match over modelId, displayName and
 * description. It is served by a GIN index over the lowercased trigrams of the three fields
 * (`catalog_trigrams`, an IMMUTABLE SQL function created by the catalog migration): every row
 * that matches the ILIKE must contain every trigram of the lowercased search, so the index
 * narrows the rows exactly and the ILIKE only rechecks the few candidates. Built-in array GIN
 * rather than the pg_trgm extension: PGlite can only use pg_trgm when every process that opens
 * the data directory loads the extension (else even an INSERT into models fails), while this
 * needs nothing but core PostgreSQL. These expressions must match the index text exactly.
 */
export const modelSearchText = sql`lower(model_id || ' ' || display_name || ' ' || description)`;
export const modelSearchTrigrams = sql`catalog_trigrams(${modelSearchText})`;
/**
 * sort=price_asc: the cost of a typical run (the unit price after discount × 100 × the units of
 * the request made of the schema's defaults, `typical_quantity`), NULL (unpriced) last. Units
 * differ between models (an image, a second, 1K characters), a run's cost does not.
 */
export const modelTypicalCost = sql`(price_rub * (100 - discount_percent) * typical_quantity)`;
export type ModelSchema = { input: JsonSchema; output: JsonSchema };

/** The catalog. `modelId` is the public id (may contain slashes) and never changes. */
/** The Russian overlay of a model: titles and descriptions of its input (same structure) and its own description. */
export type RussianOverlay = { input: JsonSchema; description?: string };

export const models = pgTable(
  "models",
  {
    modelId: text("model_id").primaryKey(),
    /** The provider's endpoint id this model runs as (defaults to modelId). */
    alias: text("alias").notNull(),
    displayName: text("display_name").notNull(),
    category: text("category").notNull(),
    description: text("description").notNull().default(""),
    /** Whole rubles for one typical unit; the fallback price when priceUnit is null. */
    creditCost: integer("credit_cost").notNull().default(0),
    /**
     * Exact price per unit in rubles, as a decimal string (may be below one kopeck, e.g. 0.00035).
     * Never parsed as a float for billing: lib/pricing reads it into scaled BigInt.
     */
    priceRub: numeric("price_rub", { precision: 20, scale: 8 }),
    priceUnit: text("price_unit", { enum: priceUnits }),
    /** Price before discount, same unit and scale as priceRub. */
    originalPriceRub: numeric("original_price_rub", { precision: 20, scale: 8 }),
    /** 0–100, applied to priceRub × quantity before rounding up to 0.0001 ₽. */
    discountPercent: numeric("discount_percent", { precision: 5, scale: 2 }).notNull().default("0"),
    /** Null for unbranded and community models (hidden unless includeCommunity=true). */
    modelLab: text("model_lab"),
    modelFamily: text("model_family"),
    groupLabel: text("group_label"),
    tags: text("tags").array().notNull().default([]),
    thumbnailUrl: text("thumbnail_url"),
    licenseType: text("license_type", { enum: licenseTypes }),
    publishedAt: tstz("published_at").notNull().defaultNow(),
    schema: jsonb("schema").$type<ModelSchema>(),
    schemaRu: jsonb("schema_ru").$type<RussianOverlay>(),
    /** Last schema refresh from the provider; null means "fetch on first read". */
    schemaFetchedAt: tstz("schema_fetched_at"),
    visible: boolean("visible").notNull().default(true),
    /** Completed generations, used by sort=popular. */
    popularity: bigint("popularity", { mode: "number" }).notNull().default(0),
    /**
     * Completed runs whose duration was counted, and their total milliseconds from request to
     * result: the catalog's typical run time is their mean. Written with popularity, in batches
     * (lib/generation/popularity.ts), so no page reads the generations.
     */
    timedRuns: bigint("timed_runs", { mode: "number" }).notNull().default(0),
    runMsTotal: bigint("run_ms_total", { mode: "number" }).notNull().default(0),
    /**
     * The units of a typical run (lib/pricing/quantity.ts typicalQuantity, mirrored in SQL by
     * `catalog_typical_quantity`, migration 0017): computed by PostgreSQL from the price unit and
     * the input schema's defaults, so every writer (admin edits, syncs, the seeder, SQL) keeps it.
     */
    typicalQuantity: numeric("typical_quantity").generatedAlwaysAs(sql`catalog_typical_quantity(price_unit, schema -> 'input')`),
    /** Which provider runs it: `fal` in production, always the simulator for sandbox keys. */
    provider: text("provider").notNull().default("fal"),
    ...timestamps,
  },
  (t) => [
    // GET /models default sort (popular, then newest) among visible models.
    index("models_visible_popular_idx").on(t.visible, t.popularity.desc(), t.publishedAt.desc()),
    // GET /models?category=… and sort=by_category.
    index("models_category_idx").on(t.category),
    // GET /models?tag=a,b uses `tags @> array[...]`. Both GIN indexes are written through
    // (fastupdate off): with the default pending list, rows written since the last VACUUM sit
    // unsorted beside the index and every search scans them all (PGlite never vacuums on its own;
    // 5,000 freshly loaded models made a search's index scan 3 ms instead of 0.1 ms). The catalog
    // is read on every page and written by admins, syncs and the popularity flush.
    index("models_tags_gin").using("gin", t.tags).with({ fastupdate: false }),
    // GET /models?search=… (see modelSearchText).
    index("models_search_trgm_gin").using("gin", modelSearchTrigrams).with({ fastupdate: false }),
    // GET /models?sort=price_asc.
    index("models_typical_cost_idx").on(modelTypicalCost),
    // GET /models?lab=… (case-insensitive).
    index("models_lab_lower_idx").on(sql`lower(model_lab)`),
  ],
);

/**
 * One row: a number that grows with every statement that may change what a catalog list shows,
 * filters or sorts by (models inserted or deleted; any column but the provider-owned schema,
 * alias, provider and updated_at updated), bumped by a statement trigger on `models` (migrations
 * catalog-version, catalog-version-lists, catalog-typical-cost), so every writer moves it: admin edits, syncs, the
 * seeder, the popularity flush, another instance, a test's own SQL. lib/catalog/kept.ts keeps
 * list pages and facet counts per version.
 */
export const catalogVersion = pgTable("catalog_version", {
  id: boolean("id").primaryKey().default(true),
  version: bigint("version", { mode: "number" }).notNull().default(0),
});
