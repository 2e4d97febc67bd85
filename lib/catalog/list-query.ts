import { z } from "zod";

// The catalog's list query (GET /models, the catalog pages) and the query building blocks the
// other list queries share; lib/http/contracts/models.ts serves them.

/** A category or tag: lowercase letters, digits, `.`, `_` and `-`. */
export const slug = z
  .string()
  .max(64)
  .regex(/^[a-z0-9][a-z0-9._-]*$/, "lowercase letters, digits, '.', '_' and '-'");

/** A comma-separated list; empty items are dropped, so `?tag=` means no filter. */
export const csvOf = (item: z.ZodType<string, string>, what: string) =>
  z
    .string()
    .max(1024)
    .optional()
    .transform((v) =>
      (v ?? "")
        .split(",")
        .map((s) => s.trim())
        .filter(Boolean),
    )
    .pipe(z.array(item).max(20, `at most 20 ${what}`))
    .meta({ description: `Comma-separated ${what}` });

export const booleanQuery = z.enum(["true", "false", "1", "0"]).transform((v) => v === "true" || v === "1");

export const limitQuery = z.coerce.number().int().min(1).max(200).default(50).meta({ description: "1 to 200" });
export const offsetQuery = z.coerce.number().int().min(0).max(1_000_000).default(0);

export const listSorts = ["popular", "newest", "price_asc", "by_category"] as const;

export const listModelsQuery = z.object({
  category: csvOf(z.string().toLowerCase().pipe(slug), "categories (IN: any of them)"),
  lab: csvOf(z.string().min(1).max(64), "labs (IN, case-insensitive)"),
  tag: csvOf(z.string().toLowerCase().pipe(slug), "tags (AND: a model must carry every one)"),
  search: z
    .string()
    .max(64)
    .optional()
    .transform((v) => v?.trim() || undefined)
    .meta({ description: "Case-insensitive substring of modelId, displayName or description; up to 64 characters" }),
  sort: z.enum(listSorts).default("popular").meta({
    description:
      "popular (most popular, then newest), newest, price_asc (cheapest typical run first: the unit price after discount times the units of the request made of the schema's defaults, unpriced last), by_category (fixed category order, grouped)",
  }),
  includeCommunity: booleanQuery.default(false).meta({ description: "Include unbranded and community models (modelLab null)" }),
  limit: limitQuery,
  offset: offsetQuery,
});
export type ListModelsQuery = z.output<typeof listModelsQuery>;
