import { absoluteUrl, toListItem, type ModelRow } from "./columns";

/** Everything but the schemas (a list of 200 models need not carry 200 JSON Schemas). */
export type AdminRow = Omit<ModelRow, "schema" | "schemaRu">;

/** The admin view of a model: the spec's admin record plus what the admin page edits. */
export function toAdminRecord(row: AdminRow) {
  const item = toListItem(row);
  return {
    modelId: row.modelId,
    alias: row.alias,
    displayName: row.displayName,
    category: row.category,
    description: row.description,
    creditCost: row.creditCost,
    visible: row.visible,
    schemaFetchedAt: row.schemaFetchedAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    priceRub: item.priceRub,
    priceUnit: row.priceUnit,
    originalPriceRub: item.originalPriceRub,
    discountPercent: item.discountPercent,
    modelLab: row.modelLab,
    modelFamily: row.modelFamily,
    groupLabel: row.groupLabel,
    tags: row.tags,
    licenseType: row.licenseType,
    // What is stored (null: the rendered example is shown), so the editor edits the admin's own value.
    thumbnailUrl: absoluteUrl(row.thumbnailUrl),
    popularity: row.popularity,
    publishedAt: row.publishedAt.toISOString(),
  };
}
export type AdminModelRecord = ReturnType<typeof toAdminRecord>;
