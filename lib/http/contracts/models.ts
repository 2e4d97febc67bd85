import { z } from "zod";
import { priceUnits, licenseTypes } from "@/db/schema/models";
import { listModelsQuery } from "@/lib/catalog/list-query";
import { defineOperations } from "./operation";

// The query building blocks, for the other contracts' list queries.
export { booleanQuery, csvOf, limitQuery, offsetQuery } from "@/lib/catalog/list-query";

// ---- responses ------------------------------------------------------------------------------
const jsonSchemaObject = z.record(z.string(), z.unknown()).meta({ description: "JSON Schema" });

export const modelListItem = z
  .object({
    modelId: z.string(),
    displayName: z.string(),
    category: z.string(),
    description: z.string(),
    descriptionRu: z
      .string()
      .nullable()
      .meta({ description: "The description in Russian (the Russian overlay's, which an admin may edit); null without one" }),
    creditCost: z.number().int().meta({ description: "Whole rubles of a typical single unit; the fixed price of models without priceRub" }),
    priceRub: z.number().nullable().meta({
      description:
        "Exact unit price charged: the discount applied, not rounded (may be below one kopeck); what /estimate calls estimatedPriceRub",
    }),
    priceUnit: z.enum(priceUnits).nullable(),
    originalPriceRub: z.number().nullable().meta({ description: "Unit price before the discount; null without a discount" }),
    discountPercent: z.number().min(0).max(100),
    modelLab: z.string().nullable(),
    modelFamily: z.string().nullable(),
    groupLabel: z.string().nullable(),
    tags: z.array(z.string()),
    thumbnailUrl: z.string().nullable(),
    licenseType: z.enum(licenseTypes).nullable(),
    publishedAt: z.iso.datetime(),
    createdAt: z.iso.datetime(),
    typicalCostRub: z.number().meta({
      description:
        "What one typical run costs: the request made of the input schema's defaults (one block of 1K characters for text models), rounded up like a charge; sort=price_asc orders by it",
    }),
    runs: z.number().int().meta({ description: "Completed runs on this gateway" }),
    typicalRunSeconds: z
      .number()
      .nullable()
      .meta({ description: "Mean seconds from request to result of those runs; null before the first" }),
  })
  .meta({
    id: "ModelListItem",
    examples: [
      {
        modelId: "fal-ai/flux/dev",
        displayName: "FLUX.1 [dev]",
        category: "text-to-image",
        description: "Open-weight text-to-image model with strong prompt following.",
        descriptionRu: "Открытая модель «текст в изображение», точно следующая промпту.",
        creditCost: 3,
        priceRub: 2.25,
        priceUnit: "megapixel",
        originalPriceRub: null,
        discountPercent: 0,
        modelLab: "Black Forest Labs",
        modelFamily: "FLUX.1",
        groupLabel: "FLUX",
        tags: ["realism", "text-rendering", "lora-compatible"],
        thumbnailUrl: "https://gateway.example.com/examples/fal-ai/flux/dev",
        licenseType: "non-commercial",
        publishedAt: "2024-08-01T00:00:00.000Z",
        createdAt: "2026-11-01T09:30:00.000Z",
        typicalCostRub: 2.3593,
        runs: 1284,
        typicalRunSeconds: 4.2,
      },
    ],
  });

export const modelListResponse = z
  .object({ items: z.array(modelListItem), total: z.number().int(), limit: z.number().int(), offset: z.number().int() })
  .meta({ id: "ModelList" });

export const modelCard = modelListItem
  .extend({
    schema: z
      .object({ input: jsonSchemaObject, output: jsonSchemaObject })
      .nullable()
      .meta({ description: "JSON Schema of the /run body (input) and of the result (output)" }),
    schemaRu: z
      .object({
        input: jsonSchemaObject,
        description: z.string().optional().meta({ description: "The model's description in Russian" }),
      })
      .nullable()
      .meta({ description: "Russian titles and descriptions, same structure as schema.input" }),
    schemaFetchedAt: z.iso.datetime().nullable(),
    updatedAt: z.iso.datetime(),
  })
  .meta({ id: "ModelCard" });

export const estimateBody = z
  .record(z.string(), z.unknown())
  .optional()
  .transform((v) => v ?? {})
  .meta({
    id: "ModelInput",
    description: "The model input, as for /run/{modelId}; validated against schema.input",
    examples: [{ prompt: "a lighthouse on a cliff at dawn, oil painting", image_size: "landscape_4_3", num_images: 2 }],
  });

export const estimateResponse = z
  .object({
    modelId: z.string(),
    modelAlias: z.string(),
    estimatedCostRub: z.number().meta({ description: "The amount to be charged: rounded up to 0.0001 ₽" }),
    estimatedCostCredits: z.number().int().meta({ description: "The same amount in credits (1 credit = 0.0001 ₽)" }),
    estimatedPriceRub: z.number().meta({ description: "Unit price after discount, before rounding" }),
    priceUnit: z.enum(priceUnits),
    quantity: z.number().meta({ description: "Units in this request (images, megapixels, seconds, 1 request, thousands of characters)" }),
    currency: z.literal("RUB"),
  })
  .meta({
    id: "ModelEstimate",
    examples: [
      {
        modelId: "fal-ai/flux/dev",
        modelAlias: "fal-ai/flux/dev",
        estimatedCostRub: 3.5389,
        estimatedCostCredits: 35389,
        estimatedPriceRub: 2.25,
        priceUnit: "megapixel",
        quantity: 1.572864,
        currency: "RUB",
      },
    ],
  });

export const modelPathParams = z.object({
  modelId: z.string().meta({
    description:
      "May contain slashes, placed in the path as it is (e.g. fal-ai/flux/dev); percent-encoded slashes (fal-ai%2Fflux%2Fdev, as generated clients send a path parameter) work the same",
  }),
});

export const modelOperations = defineOperations([
  {
    method: "get",
    path: "/models",
    operationId: "listModels",
    summary: "Search the public model catalog",
    tags: ["Models"],
    surface: "gateway",
    auth: "optional",
    query: listModelsQuery,
    responses: { 200: { description: "A page of models", schema: modelListResponse } },
  },
  {
    method: "get",
    path: "/models/{modelId}",
    operationId: "getModel",
    summary: "A model card with its input/output JSON Schema",
    description:
      "Hidden and unknown models answer 404 unknown_model. A schema never fetched (schemaFetchedAt null) is fetched from the provider on this read.",
    tags: ["Models"],
    surface: "gateway",
    auth: "optional",
    params: modelPathParams,
    errors: ["unknown_model"],
    responses: { 200: { description: "The model card", schema: modelCard } },
  },
  {
    method: "post",
    path: "/models/{modelId}/estimate",
    operationId: "estimateModel",
    summary: "Price of a request before running it",
    description:
      "Validates the body against schema.input (400 invalid_body with issues pointing at the field), counts the units " +
      "(num_images; image_size or width×height for megapixels; duration for seconds; text length for 1k_chars), applies the discount and rounds up to 0.0001 ₽.",
    tags: ["Models"],
    surface: "gateway",
    auth: "key",
    params: modelPathParams,
    body: estimateBody,
    errors: ["unknown_model"],
    responses: { 200: { description: "The estimate", schema: estimateResponse } },
  },
  {
    method: "get",
    path: "/examples/{modelId}",
    operationId: "getModelExample",
    summary: "A model's example output as the app renders it (`?as=audio`: an audio model's sound)",
    tags: ["Internal"],
    surface: "gateway",
    auth: "none",
    internal: true,
    params: modelPathParams,
    responses: {
      200: { description: "JPEG, or WAV with `as=audio`", contentType: "application/octet-stream" },
      304: { description: "Not modified (If-None-Match)" },
    },
    errors: ["not_found"],
  },
]);
