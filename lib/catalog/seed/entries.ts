import type { ModelSchema, PriceUnit, RussianOverlay } from "@/db/schema/models";
import { CREDITS_PER_RUB } from "@/lib/pricing/credits";
import { ceilDiv, parseDecimal } from "@/lib/pricing/decimal";
import { quote } from "@/lib/pricing/pricing";
import { seedModels } from "./data";
import { descriptionsRu } from "./descriptions-ru";
import { russianOverlay } from "./ru";
import { thumbnailPath, type SeedModel } from "./types";

/** A model as a catalog source describes it: everything but runtime state (popularity aside). */
export type CatalogEntry = {
  modelId: string;
  alias: string;
  displayName: string;
  category: string;
  description: string;
  priceRub: string | null;
  priceUnit: PriceUnit | null;
  originalPriceRub: string | null;
  discountPercent: string;
  creditCost: number;
  modelLab: string | null;
  modelFamily: string | null;
  groupLabel: string | null;
  tags: string[];
  thumbnailUrl: string | null;
  licenseType: "commercial" | "non-commercial" | "open-source" | null;
  publishedAt: Date;
  schema: ModelSchema;
  schemaRu: RussianOverlay | null;
  visible: boolean;
  popularity: number;
};

/** Typical quantity behind `creditCost` (whole rubles of "a typical single unit"). */
const TYPICAL: Record<PriceUnit, string> = { image: "1", megapixel: "1", second: "5", request: "1", "1k_chars": "1" };

/** creditCost = the typical unit's price after discount, rounded up to whole rubles. */
export function typicalCreditCost(m: Pick<SeedModel, "priceRub" | "priceUnit" | "discountPercent" | "creditCost">): number {
  if (m.priceRub === null) return m.creditCost ?? 0;
  const q = quote(
    { priceRub: m.priceRub, priceUnit: m.priceUnit, discountPercent: String(m.discountPercent ?? 0), creditCost: 0 },
    parseDecimal(TYPICAL[m.priceUnit ?? "request"]),
  );
  return Number(ceilDiv(BigInt(q.credits), BigInt(CREDITS_PER_RUB)));
}

export function toCatalogEntry(m: SeedModel): CatalogEntry {
  const discount = m.discountPercent ?? 0;
  return {
    modelId: m.modelId,
    alias: m.modelId,
    displayName: m.displayName,
    category: m.category,
    description: m.description,
    priceRub: m.priceRub,
    priceUnit: m.priceUnit,
    // The list price the discount is taken from (shown struck through); null without a discount.
    originalPriceRub: discount > 0 ? m.priceRub : null,
    discountPercent: String(discount),
    creditCost: typicalCreditCost(m),
    modelLab: m.modelLab,
    modelFamily: m.modelFamily,
    groupLabel: m.groupLabel,
    tags: m.tags,
    thumbnailUrl: thumbnailPath(m.modelId),
    licenseType: m.licenseType,
    publishedAt: new Date(`${m.publishedAt}T00:00:00Z`),
    schema: m.schema,
    schemaRu: russianOverlay(m.schema.input, descriptionsRu[m.modelId]),
    visible: m.visible ?? true,
    popularity: m.popularity,
  };
}

let cached: CatalogEntry[] | undefined;

export function seedEntries(): CatalogEntry[] {
  cached ??= seedModels.map(toCatalogEntry);
  return cached;
}
