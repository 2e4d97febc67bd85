import { z } from "zod";
import { estimateModel } from "@/lib/catalog/estimate";
import { isSandbox } from "@/lib/auth/principal";
import { dataResult, defineTool } from "../tool";

export const estimateCost = defineTool({
  name: "estimate_cost",
  title: "Estimate a generation's cost",
  description:
    "Prices a generate call without running it: validates `input` against the model's schema exactly as generate would " +
    "(the same errors) and returns what would be reserved, in rubles, with the unit price, the unit and the quantity " +
    "counted (images, megapixels, seconds, …). Nothing is charged. Use it before an expensive call or to compare models; " +
    "get_balance tells whether the balance covers it.",
  input: z.object({
    model: z.string().min(1).describe("Model id from list_models"),
    input: z.record(z.string(), z.unknown()).default({}).describe("The model parameters generate would get (see get_model_schema)"),
  }),
  annotations: { readOnlyHint: true, openWorldHint: false },
  run: async ({ model, input }, { ctx }) => {
    const estimate = await estimateModel(ctx.db, model, input);
    const sandbox = isSandbox(ctx.principal);
    return dataResult(
      { ...estimate, ...(sandbox ? { sandbox: true } : {}) },
      sandbox ? "This is a sandbox (_test_) key: its generations run on the simulator and charge nothing." : undefined,
    );
  },
});
