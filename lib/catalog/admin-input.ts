import { z } from "zod";
import { licenseTypes, priceUnits } from "@/db/schema/models";
import { formatDecimal, isDecimalError, parseDecimal } from "@/lib/pricing/decimal";
import { slug } from "./list-query";

// What an admin sends to create or edit a model (POST /admin/models); lib/http/contracts/admin-models.ts serves it.

/** fal-style ids: segments of letters, digits and `._~-` separated by single slashes. */
export const modelIdSchema = z
  .string()
  .min(1)
  .max(200)
  .regex(/^[A-Za-z0-9][A-Za-z0-9._~-]*(\/[A-Za-z0-9._~-]+)*$/, "segments of letters, digits, '.', '_', '~' and '-' separated by '/'")
  .refine((id) => !id.split("/").some((s) => s === "." || s === ".."), "'.' and '..' segments are not allowed");

/** A decimal (string or number) with at most `scale` decimals within [min, max], kept exact as a string. */
const exactDecimal = (scale: number, min: number, max: number) =>
  z.union([z.string(), z.number()]).transform((v, ctx) => {
    try {
      const d = parseDecimal(v);
      const text = formatDecimal(d);
      if (d.scale > scale) ctx.addIssue({ code: "custom", message: `at most ${scale} decimal places` });
      else if (Number(text) < min || Number(text) > max) ctx.addIssue({ code: "custom", message: `must be between ${min} and ${max}` });
      return text;
    } catch (err) {
      if (!isDecimalError(err)) throw err;
      ctx.addIssue({ code: "custom", message: "Expected a decimal number" });
      return z.NEVER;
    }
  });

/** Stored prices: numeric(20, 8). */
export const LIST_PRICE_SCALE = 8;
export const MAX_LIST_PRICE = parseDecimal(1_000_000_000);

export const upsertModelBody = z
  .object({
    modelId: modelIdSchema,
    alias: z.string().min(1).max(200).optional().meta({ description: "Provider endpoint id; defaults to modelId" }),
    displayName: z.string().trim().min(1).max(200).optional(),
    category: slug.optional(),
    description: z.string().max(2000).optional(),
    descriptionRu: z.string().trim().min(1).max(2000).nullable().optional().meta({
      description:
        "The description in Russian (the Russian overlay's), kept over schema refreshes; null drops it (the English one shows until a refresh brings the source's)",
    }),
    creditCost: z.number().int().min(0).max(10_000_000).optional(),
    visible: z.boolean().optional(),
    priceRub: exactDecimal(LIST_PRICE_SCALE + 4, 0, 1_000_000_000)
      .nullable()
      .optional()
      .meta({
        description:
          "Exact unit price charged, the discount applied (a string keeps every digit); null: no unit price (creditCost per request). " +
          "Under a discount without originalPriceRub, the price before the discount is derived from it and must come out exact to 8 decimals.",
      }),
    originalPriceRub: exactDecimal(LIST_PRICE_SCALE, 0, 1_000_000_000).optional().meta({
      description:
        "Exact unit price before the discount; with discountPercent it sets what is charged (priceRub, if also sent, must agree)",
    }),
    priceUnit: z.enum(priceUnits).nullable().optional(),
    discountPercent: exactDecimal(2, 0, 100).optional(),
    modelLab: z.string().trim().min(1).max(100).nullable().optional(),
    modelFamily: z.string().max(100).nullable().optional(),
    groupLabel: z.string().max(100).nullable().optional(),
    tags: z.array(z.string().toLowerCase().pipe(slug)).max(30).optional(),
    licenseType: z.enum(licenseTypes).nullable().optional(),
    thumbnailUrl: z
      .union([z.url({ protocol: /^https?$/ }), z.string().regex(/^\/[^/]/, "an absolute URL or a path")])
      .nullable()
      .optional(),
  })
  .meta({ id: "AdminModelUpsert" });
export type UpsertModelBody = z.output<typeof upsertModelBody>;
