import { boolean, integer, jsonb, numeric, pgTable, primaryKey, text } from "drizzle-orm/pg-core";
import { timestamps } from "./_columns";
import { models } from "./models";

/** The generation providers a route may name (lib/provider: one folder each; `local` is the simulator). */
export const providerNames = ["local", "fal", "replicate"] as const;
export type ProviderName = (typeof providerNames)[number];

/**
 * The ways a catalog model can be run: one row per provider that serves it, tried in `position`
 * order (lib/generation/routing.ts). A model without rows runs as it always did: on the configured
 * PROVIDER under its `alias`. Users pay the catalog price whichever route serves; `costRub` is what
 * the provider charges the operator per unit of the model's price unit, for the margin in the
 * admin's stats.
 */
export const modelRoutes = pgTable(
  "model_routes",
  {
    modelId: text("model_id")
      .notNull()
      .references(() => models.modelId, { onDelete: "cascade", onUpdate: "cascade" }),
    /** `fal`, `replicate` or `local` (the simulator). */
    provider: text("provider", { enum: providerNames }).notNull(),
    /** The provider's id of the model: fal's endpoint id, Replicate's `owner/name[:version]`. */
    endpointId: text("endpoint_id").notNull(),
    /** Our input names → the provider's, where they differ (declared data, applied at submit). */
    inputMap: jsonb("input_map").$type<Record<string, string>>().notNull().default({}),
    /** The provider's cost per price unit, in rubles (decimal string); null when unknown. */
    costRub: numeric("cost_rub", { precision: 20, scale: 8 }),
    /** The admin's order: lower first. */
    position: integer("position").notNull().default(0),
    /** Off: kept, never tried. */
    enabled: boolean("enabled").notNull().default(true),
    ...timestamps,
  },
  (t) => [primaryKey({ columns: [t.modelId, t.provider] })],
);

export type ModelRouteRow = typeof modelRoutes.$inferSelect;
