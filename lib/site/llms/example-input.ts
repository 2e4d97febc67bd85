import type { JsonSchema } from "@/db/schema/models";

const SAMPLE_PROMPT = "a lighthouse on a cliff at dawn, oil painting";
const SAMPLE_SPEECH = "Hello! This is the Generation Gateway speaking.";

function sampleUrl(name: string): string {
  if (/audio|voice|speech|music/.test(name)) return "https://example.com/voice.wav";
  if (/video/.test(name)) return "https://example.com/clip.mp4";
  return "https://example.com/photo.png";
}

function typeOf(p: JsonSchema): string | undefined {
  const branches = [p, ...((p.anyOf ?? p.oneOf ?? []) as JsonSchema[])];
  const types = branches.flatMap((b) => (Array.isArray(b.type) ? b.type : b.type ? [b.type] : [])) as string[];
  return types.find((t) => t !== "null");
}

function exampleValue(name: string, p: JsonSchema): unknown {
  if (Array.isArray(p.examples) && p.examples.length) return p.examples[0];
  if (p.default !== undefined) return p.default;
  const options = [p, ...((p.anyOf ?? p.oneOf ?? []) as JsonSchema[])].find((b) => Array.isArray(b.enum))?.enum as unknown[] | undefined;
  if (options?.length) return options[0];
  switch (typeOf(p)) {
    case "string":
      if (p.format === "uri" || /(^|_)urls?$/.test(name)) return sampleUrl(name);
      return name === "text" ? SAMPLE_SPEECH : SAMPLE_PROMPT;
    case "integer":
    case "number":
      return typeof p.minimum === "number" ? p.minimum : 1;
    case "boolean":
      return false;
    case "array":
      return [exampleValue(name.replace(/s$/, ""), (p.items ?? {}) as JsonSchema)];
    default:
      return {};
  }
}

/**
 * A call's input for documentation: every required parameter with a plausible value (the schema's
 * own example or default, else the first allowed value, else a sample by type and name); the rest
 * is left to the defaults, as a caller would.
 */
export function exampleInput(schema: JsonSchema | null | undefined): Record<string, unknown> {
  const properties = (schema?.properties ?? {}) as Record<string, JsonSchema>;
  const required = Array.isArray(schema?.required) ? (schema.required as string[]) : [];
  return Object.fromEntries(required.filter((name) => properties[name]).map((name) => [name, exampleValue(name, properties[name]!)]));
}
