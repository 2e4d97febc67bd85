"use server";

import { publicContext } from "@/lib/auth/context";
import { previewEstimate, type EstimatePreview } from "@/lib/catalog/estimate";
import { isDomainError } from "@/lib/core/errors";
import { log } from "@/lib/core/logger";

const MAX_INPUT_CHARS = 64 * 1024;
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * The catalog page's live estimate. Visitors have no API key, so the page prices inputs through
 * this server action, on the same pricing module as POST /models/{id}/estimate. It only reads
 * public data (visible models and their prices) and writes nothing but the lazy schema fetch.
 */
export async function estimateAction(modelId: unknown, input: unknown): Promise<EstimatePreview> {
  if (typeof modelId !== "string" || modelId.length > 200) return { estimate: null, issues: [{ path: [], message: "Unknown model" }] };
  if (!isObject(input) || JSON.stringify(input).length > MAX_INPUT_CHARS) {
    return { estimate: null, issues: [{ path: [], message: "Expected an object with the model's input" }] };
  }
  try {
    return await previewEstimate((await publicContext()).db, modelId, input);
  } catch (err) {
    if (isDomainError(err)) return { estimate: null, issues: [{ path: [], message: err.message }] };
    log.error("catalog estimate failed", { modelId, error: err });
    return { estimate: null, issues: [{ path: [], message: "The estimate is unavailable right now" }] };
  }
}
