import { desc, sql } from "drizzle-orm";
import type { Executor } from "@/db/client";
import { models } from "@/db/schema";
import type { JsonSchema } from "@/db/schema/models";
import { formatDecimal, parseDecimal } from "@/lib/pricing/decimal";
import { priceTerms, quote } from "@/lib/pricing/pricing";
import { CATEGORY_ORDER, gatewayCategoriesOf, skillCategoryOf, skillPriceUnitOf, type SkillCategory } from "./categories";
import { getModelForUse } from "./get";
import { catalogFilter } from "./list";
import { mergeOverlay } from "./overlay";

const mapped = CATEGORY_ORDER.filter((c) => skillCategoryOf(c));

/**
 * GET /api/v1/models (and the MCP tool list_models, which adds `search`: the catalog's own
 * index-backed substring search): visible models in the skill categories, cheapest terms an agent pays.
 */
export async function listSkillModels(db: Executor, q: { category?: SkillCategory; format: "full" | "compact"; search?: string }) {
  const categories = q.category ? gatewayCategoriesOf(q.category) : mapped;
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
    .where(catalogFilter({ category: categories, lab: [], tag: [], search: q.search, includeCommunity: true }))
    .orderBy(
      sql`array_position(${sql.raw(`ARRAY[${mapped.map((c) => `'${c}'`).join(",")}]::text[]`)}, ${models.category})`,
      desc(models.popularity),
      models.modelId,
    );
  return {
    models: rows.map((m) => {
      // The unit price after discount: what an agent is charged per unit.
      const { unit } = priceTerms(m);
      const unitPrice = Number(formatDecimal(quote(m, parseDecimal(1)).unitPriceRub));
      const priceUnit = skillPriceUnitOf(unit, m.category) ?? undefined;
      const base = { id: m.modelId, name: m.displayName, category: skillCategoryOf(m.category)!, priceRub: unitPrice, priceUnit };
      return q.format === "compact" ? base : { ...base, description: m.description, billingUnit: unit, gatewayCategory: m.category };
    }),
  };
}

type Property = JsonSchema & { anyOf?: JsonSchema[]; oneOf?: JsonSchema[] };

/** One parameter in the skill's compact form: type, description, default, enum, minimum, maximum. */
function compactParameter(p: Property) {
  const branches = [p, ...(p.anyOf ?? []), ...(p.oneOf ?? [])];
  const types = [
    ...new Set(branches.flatMap((b) => (Array.isArray(b.type) ? b.type : b.type ? [b.type] : [])).filter((t) => t !== "null")),
  ];
  const enumValues = branches.find((b) => Array.isArray(b.enum))?.enum as unknown[] | undefined;
  const numeric = (v: unknown) => (typeof v === "number" ? v : undefined);
  const out: Record<string, unknown> = {
    type: types.length ? types.join("|") : undefined,
    description: typeof p.description === "string" ? p.description : typeof p.title === "string" ? p.title : undefined,
    default: p.default,
    enum: enumValues?.map(String),
    minimum: numeric(p.minimum),
    maximum: numeric(p.maximum),
  };
  return Object.fromEntries(Object.entries(out).filter(([, v]) => v !== undefined));
}

/** GET /api/v1/models/{modelId}/schema. */
export async function getSkillModelSchema(db: Executor, modelId: string, q: { format: "full" | "compact"; lang: "en" | "ru" }) {
  const model = await getModelForUse(db, modelId);
  let input: JsonSchema = model.schema?.input ?? { type: "object", properties: {}, required: [] };
  if (q.lang === "ru" && model.schemaRu) input = mergeOverlay(input, model.schemaRu.input);
  const required = Array.isArray(input.required) ? (input.required as string[]) : [];
  if (q.format === "full") return { ...input, required, properties: (input.properties ?? {}) as Record<string, JsonSchema> };
  const properties = Object.fromEntries(
    Object.entries((input.properties ?? {}) as Record<string, Property>).map(([k, v]) => [k, compactParameter(v)]),
  );
  return { required, properties };
}
