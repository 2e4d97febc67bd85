import type { JsonSchema } from "@/db/schema/models";

/**
 * Applies a translation overlay (`schemaRu.input`: same structure, only titles and descriptions)
 * over a JSON Schema, by path. Only `title` and `description` are taken from the overlay, so a
 * malformed overlay can never change what is validated.
 */
export function mergeOverlay(schema: JsonSchema, overlay: JsonSchema | undefined | null): JsonSchema {
  if (!overlay || typeof overlay !== "object") return schema;
  const out: JsonSchema = { ...schema };
  for (const key of ["title", "description"] as const) {
    if (typeof overlay[key] === "string") out[key] = overlay[key];
  }
  const props = schema.properties as Record<string, JsonSchema> | undefined;
  const overProps = overlay.properties as Record<string, JsonSchema> | undefined;
  if (props && overProps) {
    out.properties = Object.fromEntries(Object.entries(props).map(([k, v]) => [k, mergeOverlay(v, overProps[k])]));
  }
  for (const key of ["anyOf", "oneOf"] as const) {
    const branches = schema[key] as JsonSchema[] | undefined;
    const overBranches = overlay[key] as JsonSchema[] | undefined;
    if (Array.isArray(branches) && Array.isArray(overBranches)) out[key] = branches.map((b, i) => mergeOverlay(b, overBranches[i]));
  }
  if (schema.items && typeof schema.items === "object" && overlay.items && typeof overlay.items === "object") {
    out.items = mergeOverlay(schema.items as JsonSchema, overlay.items as JsonSchema);
  }
  return out;
}
