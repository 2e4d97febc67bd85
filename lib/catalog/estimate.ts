import type { Executor } from "@/db/client";
import { isDomainError, type Issue } from "@/lib/core/errors";
import { quoteForInput, quoteSummary } from "@/lib/pricing/pricing";
import type { ModelRow } from "./columns";
import { getModelForUse } from "./get";
import { validateModelInput, withDefaults } from "./validate-input";

const estimateOf = (model: ModelRow, input: Record<string, unknown>) => ({
  modelId: model.modelId,
  modelAlias: model.alias,
  ...quoteSummary(quoteForInput(model, input)),
});
export type Estimate = ReturnType<typeof estimateOf>;

/** POST /models/{modelId}/estimate: validate the input, count its units, quote. */
export async function estimateModel(db: Executor, modelId: string, input: unknown): Promise<Estimate> {
  const model = await getModelForUse(db, modelId);
  return estimateOf(model, validateModelInput(model, input));
}

export type EstimatePreview = { estimate: Estimate | null; issues: Issue[] };

/**
 * The catalog page's live price, for visitors without a key. A half-filled form still gets a
 * price: issues about fields the visitor has not filled in yet (a missing prompt) are reported
 * but do not block the quote, since they do not change it; any other issue (num_images out of
 * range, a bad size) does, because the quote would be for a request that cannot run.
 */
export async function previewEstimate(db: Executor, modelId: string, input: Record<string, unknown>): Promise<EstimatePreview> {
  const model = await getModelForUse(db, modelId);
  try {
    return { estimate: estimateOf(model, validateModelInput(model, input)), issues: [] };
  } catch (err) {
    if (!isDomainError(err) || err.code !== "invalid_body") throw err;
    const issues = err.extra.issues ?? [];
    const onlyMissing = issues.every((i) => i.path.length === 1 && input[i.path[0]!] === undefined);
    return { estimate: onlyMissing ? estimateOf(model, withDefaults(model.schema?.input, input)) : null, issues };
  }
}
