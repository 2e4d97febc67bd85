import { z } from "zod";
import { DomainError } from "@/lib/core/errors";
import { providerPreferences, type ProviderPreferences } from "@/lib/generation";

/**
 * `X-Gateway-Provider`: how a request on the gateway surface or fal's protocol steers the providers
 * of its job (the skill surface takes the same object as the body's `provider`). Either that object
 * as JSON — `{"order":["replicate"],"allow_fallbacks":false}` — or a comma list of providers, read
 * as `order`: `replicate, fal`. A bad value is 400 `invalid_params`, before anything is charged.
 */
export const PROVIDER_HEADER = "X-Gateway-Provider";

export const providerHeader = z.object({
  [PROVIDER_HEADER]: z
    .string()
    .max(1000)
    .optional()
    .meta({
      description:
        "Steers the providers of this job: a comma list (`replicate, fal`: tried in that order, then the model's other routes) or the " +
        'JSON object `{"order", "only", "ignore", "allow_fallbacks"}` (OpenRouter\'s provider routing). The answer names the provider ' +
        "that served in `X-Gateway-Served-By` and every attempt in `X-Gateway-Attempts`.",
      examples: ["replicate", '{"order":["fal"],"allow_fallbacks":false}'],
    }),
});

export function providerPreferencesOf(req: Request): ProviderPreferences | undefined {
  const raw = req.headers.get(PROVIDER_HEADER)?.trim();
  if (!raw) return undefined;
  let value: unknown;
  if (raw.startsWith("{")) {
    try {
      value = JSON.parse(raw);
    } catch {
      throw invalid("is neither a comma list of providers nor a JSON object");
    }
  } else {
    value = {
      order: raw
        .split(",")
        .map((p) => p.trim().toLowerCase())
        .filter(Boolean),
    };
  }
  const parsed = providerPreferences.safeParse(value);
  if (!parsed.success) throw invalid(parsed.error.issues.map((i) => `${i.path.join(".") || "value"}: ${i.message}`).join("; "));
  return parsed.data;
}

const invalid = (why: string) =>
  new DomainError("invalid_params", `${PROVIDER_HEADER} ${why}`, { issues: [{ path: ["headers", PROVIDER_HEADER], message: why }] });
