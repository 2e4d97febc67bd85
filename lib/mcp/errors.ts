import type { CallToolResult } from "@modelcontextprotocol/server";
import { env } from "@/lib/core/env";
import { type DomainError, type ErrorCode } from "@/lib/core/errors";
import { skillCodeOf } from "@/lib/http/errors";
import { normalizeError } from "@/lib/http/render";

const site = (path: string) => new URL(path, env().APP_URL).toString();
const rub = (v: unknown) => `${v} ₽`;
const sentence = (s: string) => (/[.!?]$/.test(s) ? s : `${s}.`);

/** What a model can do about each error: the sentence that follows the error's own message. */
function adviceFor(err: DomainError): string | null {
  const x = err.extra;
  const advice: Partial<Record<ErrorCode, () => string>> = {
    insufficient_balance: () =>
      `The call needs ${rub(x.required)} and the balance is ${rub(x.available)}. Ask the user to top up at least ${rub(x.recovery?.minAmountRub)} at ${site("/dashboard/billing")}, then call again; get_balance shows the balance.`,
    key_limit_exceeded: () =>
      `The user can raise or remove this key's monthly cap at ${site("/dashboard/keys")}; otherwise it resets on the 1st of the month.`,
    rate_limited: () =>
      `Wait ${err.headers["Retry-After"] ?? "a few"} seconds before calling again; get_balance shows the tier's requests-per-minute limit.`,
    not_found: () => "Use an id returned by generate (or upload_file) for this API key's account.",
    unknown_model: () => "Call list_models to find a model id.",
    invalid_body: () =>
      x.issues?.some((i) => i.path[0] === "model")
        ? "Call list_models to find a model id."
        : "Fix the arguments named above; get_model_schema lists a model's parameters with their types and defaults.",
    unsupported_media_type: () =>
      "Upload an image (jpeg, png, webp, gif, avif, heic), video/mp4 or audio (mp3, wav, webm, mp4, ogg, flac) file.",
    asset_too_large: () => "Send a smaller file.",
    provider_error: () => "Nothing was charged for the failed attempt; call again, after Retry-After seconds if given.",
    generation_failed: () => "Nothing was charged for it; try other input or another model.",
    asset_storage_disabled: () => "This server stores no files: pass a public URL to the model instead.",
    internal_error: () => "Try again; if it persists, report the request id.",
  };
  return advice[err.code]?.() ?? null;
}

/**
 * Any failure of a tool as an MCP tool error (`isError: true`), never a protocol error: the model
 * reads it and can act. The text leads with the skill surface's code (INSUFFICIENT_BALANCE,
 * RATE_LIMITED, NOT_FOUND, INVALID_PARAMS, …) and a sentence saying what to do; the structured
 * content is the skill surface's error envelope `{error, code, details}`.
 */
export function toolError(err: unknown, requestId: string): CallToolResult {
  const e = normalizeError(err, requestId);
  const code = skillCodeOf[e.code];
  // Several issues are listed in full (the message names only the first).
  const issues = e.extra.issues ?? [];
  const what = issues.length > 1 ? issues.map((i) => `${i.path.join(".") || "arguments"}: ${i.message}`).join("; ") : e.message;
  const advice = adviceFor(e);
  const text = `${code}: ${sentence(what)}${advice ? ` ${advice}` : ""}`;
  return {
    isError: true,
    content: [{ type: "text", text }],
    structuredContent: { error: e.message, code, details: { reason: e.code, ...e.extra, http_request_id: requestId } },
  };
}
