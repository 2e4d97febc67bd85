import { z } from "zod";
import { getSkillModelSchema } from "@/lib/catalog/skill";
import { dataResult, defineTool } from "../tool";

export const getModelSchema = defineTool({
  name: "get_model_schema",
  title: "Get a model's input schema",
  description:
    "Returns the parameters a model accepts in generate's `input`: which are required and, for each, its type, description, " +
    "default, allowed values and range (the compact format), or the model's whole JSON Schema (`full`). Call it before the " +
    "first generate on a model; parameters left out take their defaults, which is also what the price counts.",
  input: z.object({
    model: z.string().min(1).describe("Model id from list_models, e.g. fal-ai/flux/dev"),
    format: z
      .enum(["compact", "full"])
      .default("compact")
      .describe("compact: type, description, default, enum, minimum, maximum per parameter; full: the JSON Schema"),
  }),
  annotations: { readOnlyHint: true, openWorldHint: false },
  run: async ({ model, format }, { ctx }) => dataResult({ model, ...(await getSkillModelSchema(ctx.db, model, { format, lang: "en" })) }),
});
