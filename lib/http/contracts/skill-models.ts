import { z } from "zod";
import { priceUnits } from "@/db/schema/models";
import { SKILL_CATEGORIES, SKILL_PRICE_UNITS } from "@/lib/catalog/categories";
import { defineOperations } from "./operation";
import { modelPathParams } from "./models";

export const skillModelsQuery = z.object({
  category: z.enum(SKILL_CATEGORIES).optional(),
  format: z.enum(["full", "compact"]).default("full").meta({ description: "compact leaves out descriptions" }),
});

export const skillSchemaQuery = z.object({
  format: z
    .enum(["full", "compact"])
    .default("compact")
    .meta({ description: "compact: each parameter's type, description, default, enum, minimum, maximum; full: the model's JSON Schema" }),
  lang: z.enum(["en", "ru"]).default("en").meta({ description: "Language of titles and descriptions" }),
});

export const skillModel = z
  .object({
    id: z.string(),
    name: z.string(),
    category: z.enum(SKILL_CATEGORIES),
    description: z.string().optional(),
    priceRub: z.number().optional().meta({ description: "Price per unit in rubles, after any discount" }),
    priceUnit: z.enum(SKILL_PRICE_UNITS).optional().meta({
      description: "Absent when the unit has no word in this enum (per request of audio/3D models, per 1,000 characters): see billingUnit",
    }),
    billingUnit: z.enum(priceUnits).optional().meta({ description: "The gateway price unit (full format)" }),
    gatewayCategory: z.string().optional().meta({ description: "The gateway category, e.g. text-to-speech (full format)" }),
  })
  .meta({ id: "SkillModel" });

export const skillModelsResponse = z.object({ models: z.array(skillModel) }).meta({ id: "SkillModelList" });

export const skillParameter = z
  .object({
    type: z.string().optional(),
    description: z.string().optional(),
    default: z.unknown().optional(),
    enum: z.array(z.string()).optional(),
    minimum: z.number().optional(),
    maximum: z.number().optional(),
  })
  .meta({ id: "SkillModelParameter" });

/**
 * The spec's "Model schema": `required` and `properties`. `format=full` answers the model's whole
 * JSON Schema, which is that object with JSON Schema's other keywords beside them (`type`, `title`,
 * `$defs` its parameters' local `$ref`s point into), so they are admitted; each parameter is then
 * its full JSON Schema.
 */
export const skillModelSchema = z
  .looseObject({
    required: z.array(z.string()).meta({ description: "Names of the required parameters" }),
    properties: z
      .record(z.string(), skillParameter.or(z.record(z.string(), z.unknown())))
      .meta({ description: "Each parameter: compact (type, description, default, enum, minimum, maximum), or its JSON Schema (full)" }),
  })
  .meta({
    id: "SkillModelSchema",
    description: "compact: `required` and `properties` alone; full: the model's JSON Schema, `required` and `properties` always present",
  });

export const skillModelOperations = defineOperations([
  {
    method: "get",
    path: "/api/v1/models",
    operationId: "skillListModels",
    summary: "Models an agent can call, with prices",
    tags: ["Skill"],
    surface: "skill",
    auth: "key",
    query: skillModelsQuery,
    responses: { 200: { description: "Models", schema: skillModelsResponse } },
  },
  {
    method: "get",
    path: "/api/v1/models/{modelId}/schema",
    operationId: "skillGetModelSchema",
    summary: "The parameters a model accepts",
    tags: ["Skill"],
    surface: "skill",
    auth: "key",
    params: modelPathParams,
    query: skillSchemaQuery,
    errors: ["not_found", "unknown_model"],
    responses: { 200: { description: "Model schema", schema: skillModelSchema } },
  },
]);
