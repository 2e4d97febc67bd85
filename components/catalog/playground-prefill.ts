import type { Field, FormValue } from "./schema-fields";

/**
 * A model input → form values, the inverse of `toInput`: how "Run again" (an activity record's
 * page) hands a run's input to the playground in `?input=` (JSON). Fields the schema does not
 * have are dropped; a value of another shape is shown as typed, so the form's own checks name it.
 */
export function valuesFromInput(fields: Field[], input: Record<string, unknown>): Record<string, FormValue> {
  const out: Record<string, FormValue> = {};
  for (const f of fields) {
    if (!(f.name in input)) continue;
    const v = input[f.name];
    if (v === null || v === undefined) continue;
    if (f.kind === "boolean") out[f.name] = v === true;
    else if (f.kind === "size" && typeof v === "object" && !Array.isArray(v)) {
      const size = v as { width?: unknown; height?: unknown };
      out[f.name] = { width: String(size.width ?? ""), height: String(size.height ?? "") };
    } else if (f.kind === "json" || typeof v === "object") out[f.name] = JSON.stringify(v);
    else out[f.name] = String(v);
  }
  return out;
}

/** `?input=<JSON object>` of a page's search → form values, or null without a usable one. */
export function prefillFromSearch(search: string, fields: Field[]): Record<string, FormValue> | null {
  const raw = new URLSearchParams(search).get("input");
  if (!raw) return null;
  try {
    const input: unknown = JSON.parse(raw);
    if (!input || typeof input !== "object" || Array.isArray(input)) return null;
    const values = valuesFromInput(fields, input as Record<string, unknown>);
    return Object.keys(values).length > 0 ? values : null;
  } catch {
    return null;
  }
}
