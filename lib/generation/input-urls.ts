import { ownObjectKey } from "@/lib/assets/read-input-url";
import { DomainError, type Issue } from "@/lib/core/errors";
import { checkOutboundUrl, isOutboundError } from "@/lib/net";
import { currentStorage } from "@/lib/storage";

/**
 * Media a model reads by URL (`image_url`, `audio_url`, `mask_url`, `image_urls[]`, a reference's
 * `url`, …) is fetched by the provider, or by the service for the integrations: a URL no one may
 * fetch (`file:`, loopback, a private or metadata address, a name that resolves only to one) can
 * only fail, after the request was charged. Each is held to the rules of completion callbacks
 * (lib/net `checkOutboundUrl`; ALLOW_PRIVATE_URLS lets loopback through in development) before the
 * reserve, and refused as 400 invalid_body naming the field. Two kinds pass as they are: the
 * service's own stored files (an upload's URL, on APP_URL, which is loopback in development) and
 * `data:` URLs, which carry the bytes themselves.
 */
const MAX_DEPTH = 16;

const isUrlKey = (key: string) => key === "url" || key.endsWith("_url");
const isUrlListKey = (key: string) => key === "urls" || key.endsWith("_urls");

/** Every URL-named string of the input, with its path (`image_urls.1`, `loras.0.url`, …). */
function urlFields(input: unknown): { path: string[]; url: string }[] {
  const found: { path: string[]; url: string }[] = [];
  const walk = (value: unknown, path: string[]) => {
    if (path.length > MAX_DEPTH || value === null || typeof value !== "object") return;
    for (const [key, v] of Object.entries(value)) {
      const here = [...path, key];
      if (isUrlKey(key) && typeof v === "string") found.push({ path: here, url: v });
      else if (isUrlListKey(key) && Array.isArray(v))
        v.forEach((item, i) =>
          typeof item === "string" ? found.push({ path: [...here, String(i)], url: item }) : walk(item, [...here, String(i)]),
        );
      else walk(v, here);
    }
  };
  walk(input, []);
  return found;
}

async function problemOf(url: string): Promise<string | null> {
  if (/^data:/i.test(url)) return null;
  if (ownObjectKey(url, currentStorage()) !== null) return null;
  try {
    await checkOutboundUrl(url);
    return null;
  } catch (err) {
    if (isOutboundError(err)) return err.message;
    throw err;
  }
}

/** 400 invalid_body listing every media URL of the input that could never be fetched. */
export async function refuseUnfetchableInputUrls(input: Record<string, unknown>): Promise<void> {
  const fields = urlFields(input);
  if (!fields.length) return;
  const problems = await Promise.all(fields.map((f) => problemOf(f.url)));
  const issues: Issue[] = fields.flatMap((f, i) => (problems[i] ? [{ path: f.path, message: problems[i] }] : []));
  if (!issues.length) return;
  throw new DomainError("invalid_body", `${issues[0]!.path.join(".")}: ${issues[0]!.message}`, { issues });
}
