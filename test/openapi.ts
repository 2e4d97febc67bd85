import { z } from "zod";

/**
 * Holds real answers to the public OpenAPI document (/openapi.json): the status must be one the
 * operation lists, the media type one that status lists (a range like `image/*` counts), and a
 * JSON body must match that media type's schema (JSON Schema 2020-12, read by zod), and an error's
 * code must be one the status's description names (the document lists them there).
 */
type Json = Record<string, any>;

const schemas = new Map<string, z.ZodType>();

/** The document's schema as a validator: its components become `$defs` the schema's `$ref`s point into. */
function validatorOf(doc: Json, schema: Json): z.ZodType {
  const text = JSON.stringify({ ...schema, $defs: doc.components?.schemas ?? {} }).replaceAll('"#/components/schemas/', '"#/$defs/');
  let validator = schemas.get(text);
  if (!validator) schemas.set(text, (validator = z.fromJSONSchema(JSON.parse(text))));
  return validator;
}

const mediaTypeOf = (header: string | null) => (header ?? "").split(";")[0]!.trim().toLowerCase();

/** The answer's departures from what the document says `method template` answers (none: it conforms). */
export async function departures(doc: Json, method: string, template: string, res: Response): Promise<string[]> {
  const op = doc.paths?.[template]?.[method.toLowerCase()] as Json | undefined;
  if (!op) return [`${method} ${template} is not in the document`];
  const at = `${method} ${template} → ${res.status}`;
  const response = op.responses?.[String(res.status)] as Json | undefined;
  if (!response) return [`${at}: status not documented (${Object.keys(op.responses ?? {}).join(", ")})`];
  const body = await res.clone().text();
  if (!body) return [];
  const type = mediaTypeOf(res.headers.get("content-type"));
  const content = (response.content ?? {}) as Json;
  const declared = Object.keys(content).find((t) => t === type || (t.endsWith("/*") && type.startsWith(t.slice(0, -1))));
  if (!declared) return [`${at}: a ${type || "untyped"} body, the document says ${Object.keys(content).join(", ") || "none"}`];
  const schema = content[declared]?.schema as Json | undefined;
  if (!schema || !type.includes("json")) return [];
  const value = JSON.parse(body) as unknown;
  const parsed = validatorOf(doc, schema).safeParse(value);
  if (!parsed.success)
    return [`${at}: the body does not match ${schema.$ref ?? "its schema"}: ${parsed.error.message} — ${body.slice(0, 300)}`];
  const code = errorCodeOf(value);
  return code && !String(response.description).includes(code)
    ? [`${at}: ${code} is not among the codes documented (${response.description})`]
    : [];
}

/** An error answer's code: the gateway envelope's `error`, the skill envelope's `details.reason`. */
function errorCodeOf(body: unknown): string | null {
  if (typeof body !== "object" || body === null) return null;
  const b = body as Json;
  if (b.success === false && typeof b.error === "string") return b.error;
  return typeof b.code === "string" && typeof b.details?.reason === "string" ? (b.details.reason as string) : null;
}
