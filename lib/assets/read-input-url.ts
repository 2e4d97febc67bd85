import type { Readable } from "node:stream";
import { OutboundError, safeFetch, type NetPolicy, type Resolver } from "@/lib/net";
import { currentStorage, type ObjectStorage } from "@/lib/storage";

export type InputFile = { body: Readable; contentType: string | null; source: "storage" | "remote" };

/**
 * The key of one of the service's own stored files, when `url` is its public URL or a signed
 * provider URL of it (query ignored); null for any other URL.
 */
export function ownObjectKey(url: string, storage: ObjectStorage | null = currentStorage()): string | null {
  return storage ? storage.keyOf(url) : null;
}

/**
 * Opens an input file named by URL (`image_url`, `audio_url`, a reference image) for the service
 * to read. The service's own files are read straight from storage: no HTTP round trip, and it
 * works when APP_URL is a loopback address. Anything else goes through safeFetch.
 */
export async function readInputUrl(
  url: string,
  options: { maxBytes: number; timeoutMs: number; net?: { policy?: NetPolicy; resolver?: Resolver } },
): Promise<InputFile> {
  const storage = currentStorage();
  const key = ownObjectKey(url, storage);
  if (storage && key) {
    const object = await storage.get(key);
    if (!object) throw new OutboundError("bad_status", "The file no longer exists", 404);
    if (object.totalBytes > options.maxBytes) {
      object.body.destroy();
      throw new OutboundError("too_large", `The file is larger than ${options.maxBytes} bytes`);
    }
    return { body: object.body, contentType: object.contentType, source: "storage" };
  }
  const res = await safeFetch(url, {
    maxBytes: options.maxBytes,
    timeoutMs: options.timeoutMs,
    policy: options.net?.policy,
    resolver: options.net?.resolver,
  });
  if (res.status !== 200) {
    res.discard();
    throw new OutboundError("bad_status", `The origin answered HTTP ${res.status}`, res.status);
  }
  const type = res.headers["content-type"];
  return { body: res.body, contentType: typeof type === "string" ? type : null, source: "remote" };
}
