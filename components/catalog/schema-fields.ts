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

/** Why a field keeps a run from being sent, checked in the browser against the schema. */
export type FieldProblem =
  | { kind: "required" }
  | { kind: "integer" }
  | { kind: "number" }
  | { kind: "min"; limit: number }
  | { kind: "max"; limit: number }
  | { kind: "maxLength"; limit: number };

/**
 * The problems the schema lets the page see before sending: a required field left empty, a
 * number that does not parse or is out of bounds, a text over its length. Anything subtler is
 * left to the server's validation (its issues are shown beside the fields too).
 */
export function fieldProblems(fields: Field[], values: Record<string, FormValue>): Record<string, FieldProblem> {
  const out: Record<string, FieldProblem> = {};
  for (const f of fields) {
    const v = values[f.name];
    if (f.kind === "boolean" || typeof v === "object") continue;
    const text = typeof v === "string" ? v.trim() : "";
    if (text === "") {
      if (f.required) out[f.name] = { kind: "required" };
      continue;
    }
    if (f.kind === "integer" || f.kind === "number") {
      if (!(f.kind === "integer" ? INT : NUM).test(text)) {
        out[f.name] = { kind: f.kind };
        continue;
      }
      const n = Number(text);
      if (f.min !== undefined && n < f.min) out[f.name] = { kind: "min", limit: f.min };
      else if (f.max !== undefined && n > f.max) out[f.name] = { kind: "max", limit: f.max };
      continue;
    }
    const maxLength = f.schema.maxLength;
    if (typeof maxLength === "number" && typeof v === "string" && v.length > maxLength)
      out[f.name] = { kind: "maxLength", limit: maxLength };
  }
  return out;
}

const UPPERCASE = new Set(["hd", "sd", "uhd", "jpeg", "jpg", "png", "webp", "gif", "glb", "obj", "mp3", "mp4", "wav", "3d", "2d", "url"]);

/**
 * An enum value as words, for values the message files do not name: `square_hd` → "Square HD",
 * `landscape_16_9` → "Landscape 16:9", `3d_animation` → "3D animation". Values that are not a
 * snake_case word ("16:9", "720p", numbers) are shown as they are.
 */
export function humanizeOption(value: string): string {
  if (!/^[a-z0-9]+(_[a-z0-9]+)+$|^[a-z]+$/.test(value)) return value;
  const words: string[] = [];
  for (const part of value.split("_")) {
    const prev = words[words.length - 1];
    // Two numbers in a row are a ratio: portrait_4_3 → "4:3".
    if (/^\d+$/.test(part) && prev !== undefined && /^\d+$/.test(prev.split(":").pop()!)) words[words.length - 1] = `${prev}:${part}`;
    else words.push(UPPERCASE.has(part) ? part.toUpperCase() : part);
  }
  const first = words[0]!;
  words[0] = first.charAt(0).toUpperCase() + first.slice(1);
  return words.join(" ");
}
