import type { ModelSchema, PriceUnit } from "@/db/schema/models";

/** One model of the seed catalog (what the local catalog source knows). */
export type SeedModel = {
  modelId: string;
  displayName: string;
  category: string;
  description: string;
  /** Decimal string, exact; null → priced at `creditCost` whole rubles per request. */
  priceRub: string | null;
  priceUnit: PriceUnit | null;
  discountPercent?: number;
  /** Only for unpriced models; priced ones derive it from the price. */
  creditCost?: number;
  modelLab: string | null;
  modelFamily: string;
  groupLabel: string;
  tags: string[];
  licenseType: "commercial" | "non-commercial" | "open-source";
  /** ISO date the model was added. */
  publishedAt: string;
  /** Starting popularity (completed generations); grows with use. */
  popularity: number;
  schema: ModelSchema;
  visible?: boolean;
};

/** `fal-ai/flux/dev` → `/thumbnails/fal-ai--flux--dev.svg` (files shipped in public/). */
export const thumbnailPath = (modelId: string) => `/thumbnails/${modelId.replace(/[^a-zA-Z0-9._-]+/g, "--")}.svg`;
