import { getTableColumns, sql } from "drizzle-orm";
import { models } from "@/db/schema";
import { env } from "@/lib/core/env";
import { creditsToRub } from "@/lib/pricing/credits";
import { decimalToNumber, parseDecimal } from "@/lib/pricing/decimal";
import { quote } from "@/lib/pricing/pricing";
import { exampleImageUrl } from "./example-url";

/** The columns a list item needs: never the (large) schemas. */
export const listColumns = {
  modelId: models.modelId,
  displayName: models.displayName,
  category: models.category,
  description: models.description,
  creditCost: models.creditCost,
  priceRub: models.priceRub,
  priceUnit: models.priceUnit,
  originalPriceRub: models.originalPriceRub,
  discountPercent: models.discountPercent,
  modelLab: models.modelLab,
  modelFamily: models.modelFamily,
  groupLabel: models.groupLabel,
  tags: models.tags,
  thumbnailUrl: models.thumbnailUrl,
  licenseType: models.licenseType,
  publishedAt: models.publishedAt,
  createdAt: models.createdAt,
  popularity: models.popularity,
  timedRuns: models.timedRuns,
  runMsTotal: models.runMsTotal,
  typicalQuantity: models.typicalQuantity,
  // The Russian overlay's description alone: a page of cards need not carry the overlay's schema.
  descriptionRu: sql<string | null>`${models.schemaRu}->>'description'`,
};

export type ModelRow = typeof models.$inferSelect;
type ListColumn = Exclude<keyof typeof listColumns, "descriptionRu">;
/** A list item's source; the admin views pass a whole row, which has no `descriptionRu` of its own. */
export type ListRow = { [K in ListColumn]: ModelRow[K] } & { descriptionRu?: string | null };

export const allColumns = getTableColumns(models);

/**
 * The prices every surface shows (cards, lists, the admin views, the skill surface, the pages):
 * `priceRub` is the exact unit price charged (the discount applied, not rounded: what
 * `/estimate` calls estimatedPriceRub), `originalPriceRub` the unit price before the discount
 * (null without one). The row keeps the list price and the discount; the charge is computed from
 * those by lib/pricing, so these numbers are for display and never flow back into billing.
 */
export function publishedPrices(row: Pick<ModelRow, "priceRub" | "priceUnit" | "discountPercent" | "creditCost">) {
  if (row.priceRub === null) return { priceRub: null, originalPriceRub: null };
  const q = quote(row, { units: 1n, scale: 0 });
  return {
    priceRub: decimalToNumber(q.unitPriceRub),
    originalPriceRub: q.discountPercent.units > 0n ? decimalToNumber(q.listPriceRub) : null,
  };
}

/**
 * What one typical run costs (the request made of the schema's defaults; see
 * lib/pricing/quantity.ts typicalQuantity): the unit price times `typical_quantity`, which
 * PostgreSQL keeps, rounded up as a charge is. A model without `priceRub` costs its fixed price.
 */
export function typicalCostRub(
  row: Pick<ModelRow, "priceRub" | "priceUnit" | "discountPercent" | "creditCost" | "typicalQuantity">,
): number {
  const quantity = row.priceRub === null || row.typicalQuantity === null ? { units: 1n, scale: 0 } : parseDecimal(row.typicalQuantity);
  return creditsToRub(quote(row, quantity).credits);
}

/**
 * How often a model ran and how long a run took, from our own completed runs (null before any).
 * Not `popularity`: that starts from the seed's ranking prior (sort=popular), which never ran here.
 */
export function activityOf(row: Pick<ModelRow, "timedRuns" | "runMsTotal">) {
  return {
    runs: row.timedRuns,
    typicalRunSeconds: row.timedRuns > 0 ? Math.round(row.runMsTotal / row.timedRuns / 100) / 10 : null,
  };
}

/** Thumbnails shipped in public/ are stored as paths; API clients get absolute URLs. */
export const absoluteUrl = (v: string | null): string | null => (v && v.startsWith("/") ? new URL(v, env().APP_URL).toString() : v);

export function toListItem(row: ListRow) {
  const prices = publishedPrices(row);
  return {
    modelId: row.modelId,
    displayName: row.displayName,
    category: row.category,
    description: row.description,
    descriptionRu: row.descriptionRu ?? null,
    creditCost: row.creditCost,
    priceRub: prices.priceRub,
    priceUnit: row.priceUnit,
    originalPriceRub: prices.originalPriceRub,
    discountPercent: Number(row.discountPercent),
    modelLab: row.modelLab,
    modelFamily: row.modelFamily,
    groupLabel: row.groupLabel,
    tags: row.tags,
    // The preview image: the admin's, else the example the app renders (GET /examples/{modelId}).
    thumbnailUrl: absoluteUrl(exampleImageUrl(row)),
    licenseType: row.licenseType,
    publishedAt: row.publishedAt.toISOString(),
    createdAt: row.createdAt.toISOString(),
    typicalCostRub: typicalCostRub(row),
    ...activityOf(row),
  };
}
export type ModelListItem = ReturnType<typeof toListItem>;

export function toModelCard(row: ModelRow) {
  return {
    ...toListItem({ ...row, descriptionRu: row.schemaRu?.description ?? null }),
    schema: row.schema ?? null,
    schemaRu: row.schemaRu ?? null,
    schemaFetchedAt: row.schemaFetchedAt?.toISOString() ?? null,
    updatedAt: row.updatedAt.toISOString(),
  };
}
export type ModelCard = ReturnType<typeof toModelCard>;
