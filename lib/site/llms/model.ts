import type { Executor } from "@/db/client";
import { categoryLabel, skillCategoryOf } from "@/lib/catalog/categories";
import { curlExamples } from "@/lib/catalog/curl-examples";
import { getModelForUse } from "@/lib/catalog/get";
import { getSkillModelSchema } from "@/lib/catalog/skill";
import { mcpServerUrl } from "@/lib/site/mcp-client";
import { exampleInput } from "./example-input";
import { inline, priceText } from "./markdown";

type Parameter = { type?: string; description?: string; default?: unknown; enum?: string[]; minimum?: number; maximum?: number };

const code = (v: unknown) => `\`${inline(typeof v === "string" ? v : JSON.stringify(v))}\``;

function parameterRow(name: string, p: Parameter, required: boolean): string {
  const range = p.minimum !== undefined || p.maximum !== undefined ? `${p.minimum ?? "…"} to ${p.maximum ?? "…"}` : "";
  const allowed = p.enum ? p.enum.map(code).join(", ") : range;
  const cells = [
    `\`${name}\`${required ? " (required)" : ""}`,
    inline(p.type ?? "any"),
    p.default === undefined ? "" : code(p.default),
    allowed,
    inline(p.description ?? ""),
  ];
  return `| ${cells.join(" | ")} |`;
}

/**
 * GET /catalog/{modelId}/llms.txt: one visible model for a reader that is a model — what it does,
 * its price and unit, its input parameters in the skill surface's compact form (with defaults),
 * and the same call on the skill surface, the gateway surface and through MCP. A hidden or unknown
 * model is 404 unknown_model, as everywhere else.
 */
export async function modelLlmsTxt(db: Executor, modelId: string, appUrl: string): Promise<string> {
  const model = await getModelForUse(db, modelId);
  const schema = (await getSkillModelSchema(db, modelId, { format: "compact", lang: "en" })) as {
    required: string[];
    properties: Record<string, Parameter>;
  };
  const input = exampleInput(model.schema?.input);
  const curl = curlExamples(appUrl.replace(/\/$/, ""), model.modelId, input);
  const names = Object.keys(schema.properties);
  const ordered = [...names.filter((n) => schema.required.includes(n)), ...names.filter((n) => !schema.required.includes(n))];
  const skill = skillCategoryOf(model.category);
  const at = (path: string) => new URL(path, appUrl).toString();

  return `# ${model.displayName}

> ${model.description.replace(/\s+/g, " ").trim()}

- Model id: \`${model.modelId}\`
- Category: ${categoryLabel(model.category)}${skill ? ` (skill surface category \`${skill}\`)` : " (gateway surface only)"}
- Price: ${priceText(model)}. The quote is reserved from the balance when a call starts, the real cost settled when it ends, and a failed call is refunded in full.
- Catalog page: ${at(`/catalog/${model.modelId}`)}
- Full JSON Schema of the input: ${at(`/models/${model.modelId}`)} (\`schema.input\`)

## Input

${schema.required.length ? `Required: ${schema.required.map((n) => `\`${n}\``).join(", ")}.` : "No parameter is required."} Parameters left out take their defaults, and the price counts those defaults (image size, number of images, duration).${
    names.some((n) => /_urls?$/.test(n))
      ? " Input files are URLs: `upload_file` (MCP) or `POST /api/v1/upload` turns a local file into one."
      : ""
  }

| parameter | type | default | allowed | description |
|---|---|---|---|---|
${ordered.map((name) => parameterRow(name, schema.properties[name]!, schema.required.includes(name))).join("\n")}

## Examples

Skill surface (for agents; answers the GenerationResult, or 202 with a request id without \`sync\`):

\`\`\`bash
${curl.generate}
\`\`\`

Gateway surface (answers the model's result):

\`\`\`bash
${curl.run}
\`\`\`

MCP: connect a client to ${mcpServerUrl(appUrl)} with the header \`Authorization: Bearer $API_KEY\`, then call the tool \`generate\` with these arguments:

\`\`\`json
${JSON.stringify({ model: model.modelId, input }, null, 2)}
\`\`\`
`;
}
