import { createHash } from "node:crypto";
import type { Readable } from "node:stream";
import { env } from "@/lib/core/env";
import { isOutboundError, OutboundError, safeFetch } from "@/lib/net";
import { contentTypeForKey, extensionFor, OCTET_STREAM } from "@/lib/storage/media-types";
import { HEAD_BYTES } from "@/lib/storage/spool";
import type { RehostOptions } from "./rehost";
import { classifyResult, isUnsupportedResult } from "./result-types";

export type Kind = { contentType: string; ext: string };

/** Data URLs are recorded by digest, and very long URLs shortened, to stay within an index entry. */
export function sourceIdentity(url: string): string {
  if (url.startsWith("data:")) {
    const type = /^data:([^;,]*)/i.exec(url)?.[1] || "application/octet-stream";
    return `data:${type};sha256,${createHash("sha256").update(url).digest("hex")}`;
  }
  if (url.length <= 2048) return url;
  return `${url.slice(0, 1900)}#sha256=${createHash("sha256").update(url).digest("hex")}`;
}

export const tooLarge = (maxBytes: number) => new OutboundError("too_large", `The file is larger than ${maxBytes} bytes`);

/**
 * The file's bytes and type when they are at hand without a download (a data: URL, or media
 * `readMedia` serves in-process); null for a network file. Classified on the same head a
 * spooled download would be.
 */
export async function holdInMemory(url: string, maxBytes: number, o: RehostOptions): Promise<{ bytes: Uint8Array; kind: Kind } | null> {
  let bytes: Uint8Array;
  let declaredType: string | null;
  if (url.startsWith("data:")) {
    const m = /^data:([^,]*?),(.*)$/is.exec(url);
    if (!m) throw new OutboundError("invalid_url", "Malformed data URL");
    const params = m[1]!.split(";");
    const isBase64 = params.at(-1)?.toLowerCase() === "base64";
    bytes = isBase64 ? Buffer.from(m[2]!, "base64") : Buffer.from(decodeURIComponent(m[2]!), "utf8");
    declaredType = params[0] || null;
  } else {
    const local = o.readMedia ? await o.readMedia(url) : null;
    if (!local) return null;
    bytes = local.bytes;
    declaredType = local.contentType;
  }
  if (bytes.byteLength > maxBytes) throw tooLarge(maxBytes);
  return { bytes, kind: await classifyResult(bytes.subarray(0, HEAD_BYTES), declaredType) };
}

/**
 * The media extension a URL's path ends with (`…/image.png`), else undefined: the likely final
 * key of a network file, so a file that is what its name says needs no key update.
 */
export function extensionOfUrl(url: string): string | undefined {
  let pathname: string;
  try {
    pathname = new URL(url).pathname.replace(/\.jpeg$/i, ".jpg");
  } catch {
    return undefined;
  }
  const type = contentTypeForKey(pathname);
  return type === OCTET_STREAM ? undefined : extensionFor(type);
}

export async function openStream(
  url: string,
  maxBytes: number,
  o: RehostOptions,
): Promise<{ body: Readable; declaredType: string | null }> {
  const res = await safeFetch(url, {
    maxBytes,
    timeoutMs: o.timeoutMs ?? env().REHOST_TIMEOUT_MS,
    policy: o.net?.policy,
    resolver: o.net?.resolver,
  });
  if (res.status !== 200) {
    res.discard();
    throw new OutboundError("bad_status", `The origin answered HTTP ${res.status}`, res.status);
  }
  const type = res.headers["content-type"];
  return { body: res.body, declaredType: typeof type === "string" ? type : null };
}

export function describe(err: unknown): string {
  if (isOutboundError(err) || isUnsupportedResult(err)) return `${err.code}: ${err.message}`.slice(0, 500);
  return `storage_error: ${err instanceof Error ? err.message : String(err)}`.slice(0, 500);
}
