import { z } from "zod";
import { licenseTypes, priceUnits } from "@/db/schema/models";
import { formatDecimal, isDecimalError, parseDecimal } from "@/lib/pricing/decimal";
import { defineOperations } from "./operation";
import { booleanQuery, csvOf, limitQuery, offsetQuery } from "./models";

const slug = z
  .string()
  .max(64)
  .regex(/^[a-z0-9][a-z0-9._-]*$/, "lowercase letters, digits, '.', '_' and '-'");

/** fal-style ids: segments of letters, digits and `._~-` separated by single slashes. */
export const modelIdSchema = z
  .string()
  .min(1)
  .max(200)
  .regex(/^[A-Za-z0-9][A-Za-z0-9._~-]*(\/[A-Za-z0-9._~-]+)*$/, "segments of letters, digits, '.', '_', '~' and '-' separated by '/'")
  .refine((id) => !id.split("/").some((s) => s === "." || s === ".."), "'.' and '..' segments are not allowed");

/** A decimal (string or number) with at most `scale` decimals within [min, max], kept exact as a string. */
const exactDecimal = (scale: number, min: number, max: number) =>
  z.union([z.string(), z.number()]).transform((v, ctx) => {
    try {
      const d = parseDecimal(v);
      const text = formatDecimal(d);
      if (d.scale > scale) ctx.addIssue({ code: "custom", message: `at most ${scale} decimal places` });
      else if (Number(text) < min || Number(text) > max) ctx.addIssue({ code: "custom", message: `must be between ${min} and ${max}` });
      return text;
    } catch (err) {
      if (!isDecimalError(err)) throw err;
      ctx.addIssue({ code: "custom", message: "Expected a decimal number" });
      return z.NEVER;
    }
  });

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

/** Stored prices: numeric(20, 8). */
export const LIST_PRICE_SCALE = 8;
export const MAX_LIST_PRICE = parseDecimal(1_000_000_000);

export const upsertModelBody = z
  .object({
    modelId: modelIdSchema,
    alias: z.string().min(1).max(200).optional().meta({ description: "Provider endpoint id; defaults to modelId" }),
    displayName: z.string().trim().min(1).max(200).optional(),
    category: slug.optional(),
    description: z.string().max(2000).optional(),
    creditCost: z.number().int().min(0).max(10_000_000).optional(),
    visible: z.boolean().optional(),
    priceRub: exactDecimal(LIST_PRICE_SCALE + 4, 0, 1_000_000_000)
      .nullable()
      .optional()
      .meta({
        description:
          "Exact unit price charged, the discount applied (a string keeps every digit); null: no unit price (creditCost per request). " +
          "Under a discount without originalPriceRub, the price before the discount is derived from it and must come out exact to 8 decimals.",
      }),
    originalPriceRub: exactDecimal(LIST_PRICE_SCALE, 0, 1_000_000_000).optional().meta({
      description:
        "Exact unit price before the discount; with discountPercent it sets what is charged (priceRub, if also sent, must agree)",
    }),
    priceUnit: z.enum(priceUnits).nullable().optional(),
    discountPercent: exactDecimal(2, 0, 100).optional(),
    modelLab: z.string().trim().min(1).max(100).nullable().optional(),
    modelFamily: z.string().max(100).nullable().optional(),
    groupLabel: z.string().max(100).nullable().optional(),
    tags: z.array(z.string().toLowerCase().pipe(slug)).max(30).optional(),
    licenseType: z.enum(licenseTypes).nullable().optional(),
    thumbnailUrl: z
      .union([z.url({ protocol: /^https?$/ }), z.string().regex(/^\/[^/]/, "an absolute URL or a path")])
      .nullable()
      .optional(),
  })
  .meta({ id: "AdminModelUpsert" });
export type UpsertModelBody = z.output<typeof upsertModelBody>;

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
]);
