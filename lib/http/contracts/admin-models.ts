import { z } from "zod";
import { licenseTypes, priceUnits } from "@/db/schema/models";
import { upsertModelBody } from "@/lib/catalog/admin-input";
import { replaceRoutesBody } from "@/lib/catalog/routes";
import { providerNames } from "@/db/schema/routes";
import { booleanQuery, csvOf, limitQuery, offsetQuery, slug } from "@/lib/catalog/list-query";
import { defineOperations } from "./operation";

export const adminModelsQuery = z.object({
  limit: limitQuery,
  offset: offsetQuery,
  category: csvOf(z.string().toLowerCase().pipe(slug), "categories"),
  visibleOnly: booleanQuery.default(false),
  search: z
    .string()
    .max(64)
    .optional()
    .transform((v) => v?.trim() || undefined),
});

export const adminModelRecord = z
  .object({
    modelId: z.string(),
    alias: z.string(),
    displayName: z.string(),
    category: z.string(),
    description: z.string(),
    creditCost: z.number().int(),
    visible: z.boolean(),
    schemaFetchedAt: z.iso.datetime().nullable(),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
    priceRub: z.number().nullable().meta({ description: "Exact unit price charged (the discount applied, not rounded)" }),
    priceUnit: z.enum(priceUnits).nullable(),
    originalPriceRub: z.number().nullable().meta({ description: "Unit price before the discount; null without a discount" }),
    discountPercent: z.number(),
    modelLab: z.string().nullable(),
    modelFamily: z.string().nullable(),
    groupLabel: z.string().nullable(),
    tags: z.array(z.string()),
    licenseType: z.enum(licenseTypes).nullable(),
    thumbnailUrl: z.string().nullable(),
    popularity: z.number().int(),
    publishedAt: z.iso.datetime(),
  })
  .meta({ id: "AdminModel" });

export const adminModelsResponse = z
  .object({ items: z.array(adminModelRecord), total: z.number().int(), limit: z.number().int(), offset: z.number().int() })
  .meta({ id: "AdminModelList" });

export const modelIdBody = z.object({ modelId: z.string().min(1).max(200) });

export const upsertModelResponse = z.object({ model: adminModelRecord, created: z.boolean() });
export const syncModelResponse = z.object({ model: adminModelRecord });
export const syncCatalogResponse = z
  .object({
    before: z.number().int(),
    after: z.number().int(),
    added: z.number().int(),
    updated: z.number().int().meta({ description: "Existing models whose schema was refreshed" }),
    elapsedMs: z.number().int(),
  })
  .meta({ id: "CatalogSyncResult" });

export const modelRoutesQuery = z.object({
  modelId: z.string().min(1).max(200).meta({ description: "The model's id (it may hold slashes)" }),
});

export const adminModelRoutesResponse = z
  .object({
    modelId: z.string(),
    priceRub: z.number().meta({ description: "The unit price charged (the discount applied, not rounded)" }),
    priceUnit: z
      .enum(priceUnits)
      .meta({ description: "The unit priceRub, costRub and marginRub count (a model without a unit price: request)" }),
    routes: z.array(
      z.object({
        provider: z.enum(providerNames),
        endpointId: z.string(),
        inputMap: z.record(z.string(), z.string()),
        costRub: z.number().nullable().meta({ description: "What the provider charges per unit, in rubles; null: unknown" }),
        enabled: z.boolean(),
        position: z.int().meta({ description: "The order they are tried in: lower first" }),
        configured: z
          .boolean()
          .meta({ description: "Whether this deployment holds the provider's credentials (a route without them is never tried)" }),
        marginRub: z.number().nullable().meta({ description: "priceRub − costRub per unit; null when the cost is unknown" }),
        marginPercent: z
          .number()
          .nullable()
          .meta({ description: "marginRub as a percentage of priceRub, to 2 decimals; null when either is unknown or the price is 0" }),
      }),
    ),
  })
  .meta({ id: "AdminModelRoutes" });

const op = { tags: ["Admin"], surface: "gateway" as const, auth: "admin" as const };

export const adminModelOperations = defineOperations([
  {
    ...op,
    method: "get",
    path: "/admin/models",
    operationId: "adminListModels",
    summary: "Every model, hidden ones included",
    query: adminModelsQuery,
    responses: { 200: { description: "A page of models", schema: adminModelsResponse } },
  },
  {
    ...op,
    method: "post",
    path: "/admin/models",
    operationId: "adminUpsertModel",
    summary: "Create a model, or update the fields given",
    description:
      "Creating needs displayName and category. Price changes keep originalPriceRub (the list price a discount is taken from) and creditCost consistent.",
    body: upsertModelBody,
    errors: ["conflict"],
    responses: { 201: { description: "Created or updated", schema: upsertModelResponse } },
  },
  {
    ...op,
    method: "delete",
    path: "/admin/models",
    operationId: "adminDeleteModel",
    summary: "Remove a model (it stays removed across restarts and catalog syncs)",
    body: modelIdBody,
    errors: ["unknown_model"],
    responses: { 200: { description: "Removed", schema: z.object({ ok: z.literal(true), modelId: z.string() }) } },
  },
  {
    ...op,
    method: "post",
    path: "/admin/models/sync",
    operationId: "adminSyncModel",
    summary: "Refresh one model's schema from the provider",
    body: modelIdBody,
    errors: ["unknown_model", "provider_error"],
    responses: { 200: { description: "Synced", schema: syncModelResponse } },
  },
  {
    ...op,
    method: "post",
    path: "/admin/models/sync-catalog",
    operationId: "adminSyncCatalog",
    summary: "Re-sync the whole catalog from the provider",
    description:
      "Adds models the provider has and the catalog lacks (except ones an admin removed) and refreshes every existing model's schema. Prices, names and visibility stay as the admin set them.",
    errors: ["provider_error"],
    responses: { 200: { description: "Sync result", schema: syncCatalogResponse } },
  },
  {
    ...op,
    method: "get",
    path: "/admin/models/routes",
    operationId: "adminGetModelRoutes",
    summary: "A model's routes: the providers that can run it, in the order they are tried",
    description: "Disabled routes included. The model id is a query parameter since it may hold slashes.",
    query: modelRoutesQuery,
    errors: ["unknown_model"],
    responses: { 200: { description: "The routes", schema: adminModelRoutesResponse } },
  },
  {
    ...op,
    method: "put",
    path: "/admin/models/routes",
    operationId: "adminReplaceModelRoutes",
    summary: "Replace every route of a model at once (their order is the list's)",
    description:
      "One route per provider. An empty list removes them: the model runs on PROVIDER under its alias. Users pay the catalog price whichever route serves.",
    body: replaceRoutesBody,
    errors: ["unknown_model"],
    responses: { 200: { description: "The routes as stored", schema: adminModelRoutesResponse } },
  },
]);
