/**
 * Turns a model's input JSON Schema into form fields, and form values back into a model input.
 * Shared by the catalog playground; pure functions so they run the same in the browser and tests.
 */
export type JsonSchema = Record<string, unknown>;

export type FieldKind = "text" | "textarea" | "url" | "integer" | "number" | "boolean" | "select" | "size" | "json";

export type Field = {
  name: string;
  kind: FieldKind;
  title: string;
  description?: string;
  required: boolean;
  options?: string[];
  min?: number;
  max?: number;
  schema: JsonSchema;
};

/** Form values are strings (as typed), booleans, or a custom size. */
export type FormValue = string | boolean | { width: string; height: string };

const LONG_TEXT = new Set(["prompt", "text", "negative_prompt", "lyrics", "input", "reference_text"]);

function kindOf(name: string, s: JsonSchema): Pick<Field, "kind" | "options"> {
  const branches = (s.anyOf ?? s.oneOf) as JsonSchema[] | undefined;
  if (branches) {
    const preset = branches.find((b) => Array.isArray(b.enum));
    const custom = branches.find((b) => b.type === "object" && (b.properties as JsonSchema | undefined)?.width);
    if (preset && custom) return { kind: "size", options: (preset.enum as unknown[]).map(String) };
    if (branches.some((b) => b.type === "string")) return { kind: LONG_TEXT.has(name) ? "textarea" : "text" };
    return { kind: "json" };
  }
  if (Array.isArray(s.enum)) return { kind: "select", options: (s.enum as unknown[]).map(String) };
  switch (s.type) {
    case "boolean":
      return { kind: "boolean" };
    case "integer":
      return { kind: "integer" };
    case "number":
      return { kind: "number" };
    case "string":
      if (s.format === "uri") return { kind: "url" };
      return { kind: LONG_TEXT.has(name) || Number(s.maxLength ?? 0) > 500 ? "textarea" : "text" };
    default:
      return { kind: "json" };
  }
}

/** Fields in the schema's own order (`x-fal-order-properties`; jsonb does not keep key order). */
export function fieldsOf(schema: JsonSchema | null | undefined, overlay?: JsonSchema | null): Field[] {
  const props = (schema?.properties ?? {}) as Record<string, JsonSchema>;
  const overProps = (overlay?.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((schema?.required as string[] | undefined) ?? []);
  const order = (schema?.["x-fal-order-properties"] as string[] | undefined)?.filter((n) => n in props) ?? [];
  const names = [
    ...order,
    ...Object.keys(props)
      .filter((n) => !order.includes(n))
      .sort((a, b) => Number(required.has(b)) - Number(required.has(a))),
  ];
  return names.map((name) => {
    const s = props[name]!;
    const over = overProps[name] ?? {};
    const title = (over.title ?? s.title ?? name) as string;
    const description = (over.description ?? s.description) as string | undefined;
    const num = (v: unknown) => (typeof v === "number" ? v : undefined);
    return {
      name,
      title,
      description,
      required: required.has(name),
      min: num(s.minimum),
      max: num(s.maximum),
      schema: s,
      ...kindOf(name, s),
    };
  });
}

export function initialValues(fields: Field[]): Record<string, FormValue> {
  const out: Record<string, FormValue> = {};
  for (const f of fields) {
    const d = f.schema.default;
    if (f.kind === "boolean") out[f.name] = d === true;
    else if (f.kind === "size") out[f.name] = typeof d === "string" ? d : (f.options?.[0] ?? "");
    else if (f.kind === "json") out[f.name] = d === undefined ? "" : JSON.stringify(d);
    else out[f.name] = d === undefined || d === null ? "" : String(d);
  }
  return out;
}

const INT = /^-?\d+$/;
const NUM = /^-?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/;

/**
 * Form values → the model input. Empty optional fields are left out; numbers that do not parse
 * are sent as typed, so the server's validation names the field. Enum values keep the schema's
 * type (a numeric enum stays a number).
 */
export function toInput(fields: Field[], values: Record<string, FormValue>): Record<string, unknown> {
  const input: Record<string, unknown> = {};
  for (const f of fields) {
    const v = values[f.name];
    if (v === undefined) continue;
    if (f.kind === "boolean") {
      if (v !== (f.schema.default === true)) input[f.name] = v;
      continue;
    }
    if (typeof v === "object") {
      input[f.name] = { width: INT.test(v.width) ? Number(v.width) : v.width, height: INT.test(v.height) ? Number(v.height) : v.height };
      continue;
    }
    if (typeof v !== "string" || v.trim() === "") continue;
    if (f.kind === "integer") input[f.name] = INT.test(v.trim()) ? Number(v) : v;
    else if (f.kind === "number") input[f.name] = NUM.test(v.trim()) ? Number(v) : v;
    else if (f.kind === "select") {
      const original = (f.schema.enum as unknown[]).find((e) => String(e) === v);
      input[f.name] = original ?? v;
    } else if (f.kind === "json") {
      try {
        input[f.name] = JSON.parse(v);
      } catch {
        input[f.name] = v;
      }
    } else input[f.name] = v;
  }
  return input;
}
