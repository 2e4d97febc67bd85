import { getTableColumns } from "drizzle-orm";
import { models } from "@/db/schema";
import { env } from "@/lib/env";

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
};

export type ModelRow = typeof models.$inferSelect;
export type ListRow = { [K in keyof typeof listColumns]: ModelRow[K] };

export const allColumns = getTableColumns(models);

/**
 * A numeric column for JSON. The spec types prices as numbers; this conversion is for display
 * only: billing reads the decimal string (lib/money).
 */
export const numericOut = (v: string | null): number | null => (v === null ? null : Number(v));

/** Thumbnails shipped in public/ are stored as paths; API clients get absolute URLs. */
export const absoluteUrl = (v: string | null): string | null => (v && v.startsWith("/") ? new URL(v, env().APP_URL).toString() : v);

export function toListItem(row: ListRow) {
  return {
    modelId: row.modelId,
    displayName: row.displayName,
    category: row.category,
    description: row.description,
    creditCost: row.creditCost,
    priceRub: numericOut(row.priceRub),
    priceUnit: row.priceUnit,
    originalPriceRub: numericOut(row.originalPriceRub),
    discountPercent: Number(row.discountPercent),
    modelLab: row.modelLab,
    modelFamily: row.modelFamily,
    groupLabel: row.groupLabel,
    tags: row.tags,
    thumbnailUrl: absoluteUrl(row.thumbnailUrl),
    licenseType: row.licenseType,
    publishedAt: row.publishedAt.toISOString(),
    createdAt: row.createdAt.toISOString(),
  };
}
export type ModelListItem = ReturnType<typeof toListItem>;

export function toModelCard(row: ModelRow) {
  return {
    ...toListItem(row),
    schema: row.schema ?? null,
    schemaRu: row.schemaRu ?? null,
    schemaFetchedAt: row.schemaFetchedAt?.toISOString() ?? null,
    updatedAt: row.updatedAt.toISOString(),
  };
}
export type ModelCard = ReturnType<typeof toModelCard>;
