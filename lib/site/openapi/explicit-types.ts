/**
 * Gives every schema of an OpenAPI 3.1 document an explicit `type`, without changing what it
 * accepts. zod-openapi writes a nullable field as `{anyOf: [{type: "integer"}, {type: "null"}]}`
 * and an unknown value as `{}`: valid JSON Schema, but Scalar (/docs) checks schemas against its
 * own model, where a schema needs a `type` (or a `$ref`), and logs "Expected union value" for the
 * components holding such a field. So:
 * - a composition (`anyOf` / `oneOf`) gets the union of its branches' types, `allOf` their
 *   intersection, `const` / `enum` the types of their values;
 * - a schema that accepts anything (`{}`, a description alone) gets all seven JSON types;
 * - `additionalProperties: {}` becomes `true` (same meaning).
 */
type Schema = Record<string, unknown>;
type Doc = { components?: { schemas?: Record<string, unknown> }; paths?: Record<string, unknown> };

const ALL_TYPES = ["null", "boolean", "string", "number", "integer", "object", "array"] as const;
type JsonType = (typeof ALL_TYPES)[number];

const isSchema = (v: unknown): v is Schema => typeof v === "object" && v !== null && !Array.isArray(v);
const SUBSCHEMA_MAPS = ["properties", "patternProperties", "$defs", "dependentSchemas"] as const;
const SUBSCHEMA_LISTS = ["anyOf", "oneOf", "allOf", "prefixItems"] as const;
const SUBSCHEMAS = [
  "items",
  "not",
  "contains",
  "contentSchema",
  "propertyNames",
  "if",
  "then",
  "else",
  "unevaluatedProperties",
  "unevaluatedItems",
] as const;

function typeOfValue(v: unknown): JsonType {
  if (v === null) return "null";
  if (Array.isArray(v)) return "array";
  if (typeof v === "number") return Number.isInteger(v) ? "integer" : "number";
  return typeof v as JsonType;
}

export function withExplicitTypes<T extends Doc>(doc: T): T {
  const components = (doc.components?.schemas ?? {}) as Record<string, Schema>;
  const resolving = new Set<string>();

  /** The types a schema accepts, or undefined for any. */
  function typesOf(s: unknown): JsonType[] | undefined {
    if (!isSchema(s)) return undefined;
    if (typeof s.type === "string") return [s.type as JsonType];
    if (Array.isArray(s.type)) return s.type as JsonType[];
    if (typeof s.$ref === "string") {
      const name = s.$ref.startsWith("#/components/schemas/") ? s.$ref.slice("#/components/schemas/".length) : undefined;
      if (!name || !components[name] || resolving.has(name)) return undefined;
      resolving.add(name);
      try {
        return typesOf(components[name]);
      } finally {
        resolving.delete(name);
      }
    }
    if ("const" in s) return [typeOfValue(s.const)];
    if (Array.isArray(s.enum)) return unique(s.enum.map(typeOfValue));
    for (const key of ["anyOf", "oneOf"] as const) {
      if (!Array.isArray(s[key])) continue;
      const branches = (s[key] as unknown[]).map(typesOf);
      if (branches.some((b) => b === undefined)) return undefined;
      return unique(branches.flat() as JsonType[]);
    }
    if (Array.isArray(s.allOf)) {
      const known = (s.allOf as unknown[]).map(typesOf).filter((b): b is JsonType[] => b !== undefined);
      if (known.length === 0) return undefined;
      return known.reduce((a, b) => a.filter((t) => b.includes(t) || (t === "integer" && b.includes("number"))));
    }
    return undefined;
  }

  function visit(s: unknown): void {
    if (!isSchema(s)) return;
    for (const key of SUBSCHEMA_MAPS) if (isSchema(s[key])) Object.values(s[key] as Schema).forEach(visit);
    for (const key of SUBSCHEMA_LISTS) if (Array.isArray(s[key])) (s[key] as unknown[]).forEach(visit);
    for (const key of SUBSCHEMAS) visit(s[key]);
    if (isSchema(s.additionalProperties)) {
      if (Object.keys(s.additionalProperties).length === 0) s.additionalProperties = true;
      else visit(s.additionalProperties);
    }
    if (s.type !== undefined || typeof s.$ref === "string") return;
    const types = typesOf(s) ?? [...ALL_TYPES];
    s.type = types.length === 1 ? types[0] : types;
  }

  Object.values(components).forEach(visit);
  for (const item of Object.values(doc.paths ?? {})) {
    if (!isSchema(item)) continue;
    for (const op of [item, ...Object.values(item)]) {
      if (!isSchema(op)) continue;
      for (const param of Array.isArray(op.parameters) ? op.parameters : []) if (isSchema(param)) visit(param.schema);
      const media = [
        ...Object.values(isSchema(op.requestBody) && isSchema(op.requestBody.content) ? op.requestBody.content : {}),
        ...Object.values(isSchema(op.responses) ? op.responses : {}).flatMap((r) =>
          isSchema(r) && isSchema(r.content) ? Object.values(r.content) : [],
        ),
      ];
      for (const m of media) if (isSchema(m)) visit(m.schema);
      for (const r of Object.values(isSchema(op.responses) ? op.responses : {})) {
        if (isSchema(r) && isSchema(r.headers)) for (const h of Object.values(r.headers)) if (isSchema(h)) visit(h.schema);
      }
    }
  }
  return doc;
}

const unique = <X>(xs: X[]): X[] => [...new Set(xs)];
