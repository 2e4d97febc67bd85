import { z } from "zod";
import type { JsonSchema } from "@/db/schema/models";
import { DomainError, type Issue } from "@/lib/core/errors";
import { log } from "@/lib/core/logger";

/**
 * Validates a model input against the model's `schema.input` (JSON Schema) with zod's own JSON
 * Schema support, so the issues have the same `{path, message}` shape and wording as every other
 * 400 of the API. Defaults declared in the schema are filled in, which is what pricing counts
 * (num_images defaults to 1, image_size to square_hd, …). Unknown fields pass through untouched.
 * `/run`, `/queue` and `/api/v1/generate` validate with this before charging.
 */
type Validator = z.ZodType<Record<string, unknown>>;

const anyObject: Validator = z.record(z.string(), z.unknown());
const cache = new Map<string, Validator>();
const CACHE_SIZE = 512;

/** Keywords zod cannot express; dropped (with a warning) rather than refusing every request. */
const UNSUPPORTED = ["if", "then", "else", "not", "dependentSchemas", "dependentRequired", "unevaluatedItems", "unevaluatedProperties"];

function strip(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(strip);
  if (typeof schema !== "object" || schema === null) return schema;
  return Object.fromEntries(
    Object.entries(schema)
      .filter(([k]) => !UNSUPPORTED.includes(k))
      .map(([k, v]) => [k, strip(v)]),
  );
}

function compile(cacheKey: string, schema: JsonSchema): Validator {
  try {
    return z.fromJSONSchema(schema as z.core.JSONSchema.JSONSchema) as Validator;
  } catch (first) {
    try {
      const relaxed = z.fromJSONSchema(strip(schema) as z.core.JSONSchema.JSONSchema) as Validator;
      log.warn("model input schema uses keywords the validator ignores", { model: cacheKey, error: first });
      return relaxed;
    } catch (error) {
      log.error("model input schema cannot be compiled; accepting any object", { model: cacheKey, error });
      return anyObject;
    }
  }
}

/** The validator for a schema, compiled once per `cacheKey` (model id + version). */
export function inputValidator(cacheKey: string, schema: JsonSchema | null | undefined): Validator {
  if (!schema) return anyObject;
  let v = cache.get(cacheKey);
  if (!v) {
    v = compile(cacheKey, schema);
    if (cache.size >= CACHE_SIZE) cache.delete(cache.keys().next().value!);
    cache.set(cacheKey, v);
  }
  return v;
}

type ZodIssue = z.core.$ZodIssue;

function valueAt(value: unknown, path: PropertyKey[]): unknown {
  let v = value;
  for (const key of path) {
    if (typeof v !== "object" || v === null) return undefined;
    v = (v as Record<PropertyKey, unknown>)[key];
  }
  return v;
}

/**
 * A union failure (e.g. image_size: preset or {width,height}) lists every branch. Report the
 * branch whose type matched (its issues point inside the value); when none did, one issue at the
 * field naming the accepted shapes.
 */
function flatten(issue: ZodIssue, input: unknown, prefix: PropertyKey[] = []): Issue[] {
  const path = [...prefix, ...issue.path];
  if (issue.code === "invalid_type" && valueAt(input, path) === undefined) return [{ path: path.map(String), message: "Required" }];
  if (issue.code === "invalid_union" && issue.errors.length) {
    const matched = issue.errors.find(
      (branch) => !branch.some((i) => i.path.length === 0 && (i.code === "invalid_type" || i.code === "invalid_value")),
    );
    if (matched) return matched.flatMap((i) => flatten(i, input, path));
    const expected = issue.errors.flatMap((branch) =>
      branch.filter((i) => i.path.length === 0).map((i) => i.message.replace(/^Invalid (input|option): /, "")),
    );
    return [{ path: path.map(String), message: `Invalid input: ${[...new Set(expected)].join(", or ")}` }];
  }
  return [{ path: path.map(String), message: issue.message }];
}

export function validateModelInput(
  model: { modelId: string; updatedAt: Date; schema: { input: JsonSchema } | null },
  input: unknown,
): Record<string, unknown> {
  const validator = inputValidator(`${model.modelId}@${model.updatedAt.getTime()}`, model.schema?.input);
  const result = validator.safeParse(input);
  if (result.success) return result.data;
  const issues = result.error.issues.flatMap((i) => flatten(i, input));
  const first = issues[0]!;
  throw new DomainError("invalid_body", `${first.path.length ? `${first.path.join(".")}: ` : ""}${first.message}`, { issues });
}

/** Top-level schema defaults filled in where the input leaves a field out (for previews). */
export function withDefaults(schema: JsonSchema | null | undefined, input: Record<string, unknown>): Record<string, unknown> {
  const props = (schema?.properties ?? {}) as Record<string, JsonSchema>;
  const out = { ...input };
  for (const [name, prop] of Object.entries(props)) {
    if (out[name] === undefined && prop.default !== undefined) out[name] = prop.default;
  }
  return out;
}
