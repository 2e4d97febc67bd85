import type { Executor } from "@/db/client";
import { models } from "@/db/schema";
import { categoryLabel } from "@/lib/catalog/categories";
import { catalogFilter, catalogOrder } from "@/lib/catalog/list";
import { mcpServerUrl } from "@/lib/site/mcp-client";
import { tools } from "@/lib/mcp/tools";
import { firstSentence, inline, priceText } from "./markdown";

/**
 * GET /llms.txt: the service as the llms.txt convention describes it — a title, a summary, then
 * sections of links — written from the catalog on every request, so a model an admin adds is
 * listed at once and a hidden one never is. Each model links to its own llms.txt.
 */
export async function siteLlmsTxt(db: Executor, appUrl: string): Promise<string> {
  const at = (path: string) => new URL(path, appUrl).toString();
  const rows = await db
    .select({
      modelId: models.modelId,
      displayName: models.displayName,
      category: models.category,
      description: models.description,
      priceRub: models.priceRub,
      priceUnit: models.priceUnit,
      discountPercent: models.discountPercent,
      creditCost: models.creditCost,
    })
    .from(models)
    .where(catalogFilter({ category: [], lab: [], tag: [], search: undefined, includeCommunity: true }))
    .orderBy(...catalogOrder("by_category"));

  const sections: string[] = [];
  let category: string | null = null;
  for (const m of rows) {
    if (m.category !== category) {
      category = m.category;
      sections.push(`\n### ${categoryLabel(m.category)}\n`);
    }
    sections.push(
      `- [${inline(m.displayName)}](${at(`/catalog/${m.modelId}/llms.txt`)}): \`${m.modelId}\`, ${priceText(m)}. ${inline(firstSentence(m.description))}`,
    );
  }

  return `# Generation Gateway

> Generate images, video and audio on catalogued models through one API, paid from a prepaid balance in rubles (1 credit = 0.0001 ₽). People and AI agents call it over HTTP or through its MCP server.

Every call authenticates with an API key, \`Authorization: Bearer <key>\`, created in the dashboard (${at("/dashboard/keys")}). A \`_test_\` key is a sandbox: its generations run on a simulator and charge nothing. A generation reserves its quoted price when it starts, settles the real cost when it ends and is refunded in full if it fails. Each model below has its own llms.txt with its price, its input parameters and example calls.

## Connect

- [MCP server](${mcpServerUrl(appUrl)}): Streamable HTTP with the key in the Authorization header; tools ${tools.map((t) => t.name).join(", ")}. Client config: \`{"mcpServers": {"generation-gateway": {"type": "http", "url": "${mcpServerUrl(appUrl)}", "headers": {"Authorization": "Bearer <key>"}}}}\`
- [Skill API for agents](${at("/docs")}): \`/api/v1\` — list models, read a model's schema, generate (sync or queued, with a webhook), poll or stream a request, upload an input file, read the balance; errors carry a code (INSUFFICIENT_BALANCE, RATE_LIMITED, NOT_FOUND, INVALID_PARAMS, PROVIDER_ERROR, UNAUTHORIZED)
- [Gateway API](${at("/docs")}): \`POST /run/{modelId}\` (sync) and \`POST /queue/{modelId}\` (queued; status, stream, result, cancel), fal-compatible
- [OpenAPI document](${at("/openapi.json")}): every endpoint, generated from the code

## Models
${sections.join("\n")}

## Optional

- [Model catalog](${at("/catalog")}): the same models with a playground and live prices
- [Changelog](${at("/changelog.json")}): what changed, newest first
`;
}
