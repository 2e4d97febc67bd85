import { z } from "zod";
import { SKILL_CATEGORIES } from "@/lib/catalog/categories";
import { listSkillModels } from "@/lib/catalog/skill";
import { dataResult, defineTool } from "../tool";

export const listModels = defineTool({
  name: "list_models",
  title: "List models",
  description:
    "Lists the models this gateway can run, with each one's id, name, category and price in rubles per unit " +
    "(after any discount). Filter by `category` and narrow with `search` (a case-insensitive substring of the id, name or " +
    "description); results come most popular first, `limit` at a time. The compact format leaves out descriptions; ask for " +
    "`full` when choosing between similar models. Pass a model's `id` to get_model_schema, estimate_cost and generate.",
  input: z.object({
    category: z.enum(SKILL_CATEGORIES).optional().describe("Only models of this category"),
    search: z.string().trim().max(64).optional().describe("Case-insensitive substring of the model id, name or description"),
    format: z
      .enum(["compact", "full"])
      .default("compact")
      .describe("compact: id, name, category, price; full adds the description and billing unit"),
    limit: z.number().int().min(1).max(200).default(50).describe("At most this many models"),
  }),
  annotations: { readOnlyHint: true, openWorldHint: false },
  run: async ({ category, search, format, limit }, { ctx }) => {
    const { models } = await listSkillModels(ctx.db, { category, format, search: search || undefined });
    const shown = models.slice(0, limit);
    const more = models.length - shown.length;
    return dataResult(
      { models: shown, total: models.length },
      more > 0
        ? `${models.length} models match; the first ${shown.length} are listed (narrow with category or search, or raise limit).`
        : undefined,
    );
  },
});
