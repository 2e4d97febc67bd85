/**
 * Where a provider result keeps its files. fal-style results put a File object `{url, …}` under
 * `images[]`, `image`, `video`, `audio`, … and some models return bare `audio_url`-style fields
 * (notes/fal.md §5), so every `url` and `*_url` string that is an http(s) or data URL counts,
 * except the queue's own API links.
 */
const NOT_MEDIA = new Set(["status_url", "response_url", "cancel_url", "logs_url", "webhook_url", "queue_url", "poll_url", "stream_url"]);
const MAX_DEPTH = 16;

const isMediaKey = (key: string) => (key === "url" || key.endsWith("_url")) && !NOT_MEDIA.has(key);
const isFetchable = (value: unknown): value is string => typeof value === "string" && /^(https?:\/\/|data:)/i.test(value);

/** Every distinct media URL in a result, in the order they appear. */
export function findMediaUrls(output: unknown): string[] {
  const found = new Set<string>();
  const walk = (value: unknown, depth: number) => {
    if (depth > MAX_DEPTH || value === null || typeof value !== "object") return;
    if (Array.isArray(value)) return value.forEach((v) => walk(v, depth + 1));
    for (const [key, v] of Object.entries(value)) {
      if (isMediaKey(key) && isFetchable(v)) found.add(v);
      else walk(v, depth + 1);
    }
  };
  walk(output, 0);
  return [...found];
}

export type Replacement = { url: string; contentType?: string | null; sizeBytes?: number | null };

/**
 * A copy of the result with each media URL replaced. A File object (`{url, …}`) also gets
 * `content_type` and `file_size` when it lacks them; other fields are kept as they are.
 */
export function rewriteMediaUrls<T>(output: T, replacements: Map<string, Replacement>): T {
  const walk = (value: unknown, depth: number): unknown => {
    if (depth > MAX_DEPTH || value === null || typeof value !== "object") return value;
    if (Array.isArray(value)) return value.map((v) => walk(v, depth + 1));
    const out: Record<string, unknown> = {};
    const entries = Object.entries(value);
    for (const [key, v] of entries) {
      const r = isMediaKey(key) && isFetchable(v) ? replacements.get(v) : undefined;
      out[key] = r ? r.url : walk(v, depth + 1);
      if (r && key === "url") {
        if (!("content_type" in value) && r.contentType) out.content_type = r.contentType;
        if (!("file_size" in value) && r.sizeBytes != null) out.file_size = r.sizeBytes;
      }
    }
    return out;
  };
  return walk(output, 0) as T;
}
