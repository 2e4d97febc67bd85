import type { Executor } from "@/db/client";
import { quoteForInput, quoteSummary } from "@/lib/money/pricing";
import { getModelForUse } from "./get";
import { validateModelInput } from "./validate-input";

/** POST /models/{modelId}/estimate: validate the input, count its units, quote. */
export async function estimateModel(db: Executor, modelId: string, input: unknown) {
  const model = await getModelForUse(db, modelId);
  const validated = validateModelInput(model, input);
  const quote = quoteForInput(model, validated);
  return { modelId: model.modelId, modelAlias: model.alias, ...quoteSummary(quote) };
}
