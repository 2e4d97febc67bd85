import { modelHref } from "@/components/catalog/links";

/** Operations started from a model's input, which the playground can start again. */
const RERUNNABLE = new Set(["run", "queue", "generate"]);
/** Longer inputs (a pasted data URL) would make a link browsers and proxies refuse. */
const MAX_INPUT_CHARS = 6_000;

/**
 * "Run again": the model's playground with this run's input in `?input=` (JSON), which the
 * playground reads into its form. Null when the run had no model input or it is too long for a link.
 */
export function runAgainHref(modelId: string | null, operation: string, input: unknown): string | null {
  if (!modelId || !RERUNNABLE.has(operation) || !input || typeof input !== "object" || Array.isArray(input)) return null;
  const json = JSON.stringify(input);
  if (json.length > MAX_INPUT_CHARS) return null;
  return `${modelHref(modelId)}?${new URLSearchParams({ input: json })}`;
}
