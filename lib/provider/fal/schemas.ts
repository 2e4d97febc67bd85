import { z } from "zod";
import type { JsonSchema, ModelSchema } from "@/db/schema/models";

/** fal's answers, validated (notes/fal.md §2, §6). Unknown fields pass through untouched. */

export const falSubmitSchema = z.looseObject({
  request_id: z.string().min(1),
  status: z.string().optional(),
  queue_position: z.number().int().nullish(),
  gateway_request_id: z.string().nullish(),
});

const falLogSchema = z.looseObject({
  message: z.string(),
  level: z.string().optional(),
  timestamp: z.string().optional(),
});

export const falStatusSchema = z.looseObject({
  status: z.string(),
  queue_position: z.number().int().nullish(),
  logs: z.array(falLogSchema).nullish(),
  metrics: z.looseObject({ inference_time: z.number().nullish() }).nullish(),
  error: z.string().nullish(),
  error_type: z.string().nullish(),
});

export const falOutputSchema = z.record(z.string(), z.unknown());

export const falCancelSchema = z.looseObject({ status: z.string().optional() });

const falMetadataSchema = z.looseObject({
  display_name: z.string().optional(),
  category: z.string().optional(),
  description: z.string().optional(),
  status: z.enum(["active", "deprecated"]).optional(),
  tags: z.array(z.string()).optional(),
  thumbnail_url: z.string().nullish(),
  license_type: z.string().nullish(),
});

export const falModelsSchema = z.looseObject({
  models: z.array(
    z.looseObject({
      endpoint_id: z.string().min(1),
      metadata: falMetadataSchema.nullish(),
      openapi: z.record(z.string(), z.unknown()).nullish(),
    }),
  ),
  next_cursor: z.string().nullish(),
  has_more: z.boolean().optional(),
});

export const falPricingSchema = z.looseObject({
  prices: z.array(
    z.looseObject({
      endpoint_id: z.string(),
      unit_price: z.union([z.number(), z.string()]),
      unit: z.string(),
      currency: z.string().default("USD"),
    }),
  ),
  next_cursor: z.string().nullish(),
  has_more: z.boolean().optional(),
});

/** A JSON number as an exact decimal string ("0.025", never "2.5e-2"). */
export function decimalString(value: number | string): string {
  if (typeof value === "string") return value.trim();
  const plain = String(value);
  if (!/e/i.test(plain)) return plain;
  return value.toFixed(20).replace(/\.?0+$/, "");
}

type OpenApiDoc = {
  paths?: Record<string, Record<string, unknown>>;
  components?: { schemas?: Record<string, JsonSchema> };
};

/**
 * The model's input and output JSON Schemas out of fal's per-model OpenAPI document: the request
 * body of the submit POST and the 200 body of the result GET. Component references become
 * `#/$defs/…` and only the referenced components are carried, so each schema stands alone.
 */
export function modelSchemaFromOpenApi(doc: unknown): ModelSchema | null {
  const d = doc as OpenApiDoc;
  if (!d || typeof d !== "object" || !d.paths) return null;
  const components = d.components?.schemas ?? {};
  let input: unknown;
  let output: unknown;
  for (const [path, item] of Object.entries(d.paths)) {
    if (!item || typeof item !== "object") continue;
    const op = (method: string) => item[method] as Record<string, any> | undefined; // eslint-disable-line @typescript-eslint/no-explicit-any
    if (!path.includes("/requests/") && op("post")) {
      input ??= op("post")?.requestBody?.content?.["application/json"]?.schema;
    }
    if (/\/requests\/\{[^}]+\}$/.test(path) && op("get")) {
      output ??= op("get")?.responses?.["200"]?.content?.["application/json"]?.schema;
    }
  }
  if (!input || !output) return null;
  return { input: standalone(input as JsonSchema, components), output: standalone(output as JsonSchema, components) };
}

const REF = "#/components/schemas/";

function standalone(root: JsonSchema, components: Record<string, JsonSchema>): JsonSchema {
  const used = new Set<string>();
  const visit = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(visit);
    if (!node || typeof node !== "object") return node;
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(node)) {
      if (k === "$ref" && typeof v === "string" && v.startsWith(REF)) {
        const name = decodeURIComponent(v.slice(REF.length));
        if (!used.has(name) && components[name]) {
          used.add(name);
          defs[name] = visit(components[name]) as JsonSchema;
        }
        out[k] = `#/$defs/${name}`;
      } else {
        out[k] = visit(v);
      }
    }
    return out;
  };
  const defs: Record<string, JsonSchema> = {};
  // The usual root is a bare reference to `<Name>Input`: inline it so `properties` sit on top.
  const rootRef = typeof root.$ref === "string" && root.$ref.startsWith(REF) ? decodeURIComponent(root.$ref.slice(REF.length)) : null;
  const base = rootRef && components[rootRef] ? { title: rootRef, ...components[rootRef] } : root;
  const schema = visit(base) as JsonSchema;
  return Object.keys(defs).length ? { ...schema, $defs: defs } : schema;
}
